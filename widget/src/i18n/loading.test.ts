import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from './en';

afterEach(() => {
  vi.doUnmock('./load');
  vi.resetModules();
});

describe('translated tables load on demand', () => {
  it('keeps English until the table is there, then uses it; loads once', async () => {
    let resolve!: (t: unknown) => void;
    const loadTable = vi.fn(() => new Promise((r) => (resolve = r)));
    vi.doMock('./load', () => ({ loadTable }));
    const m = await import('./messages');
    expect(m.isLoaded('en')).toBe(true);
    expect(m.isLoaded('de-de')).toBe(false);
    expect(m.messagesFor('de-de').choosePlan).toBe(en.choosePlan);
    const p = m.loadMessages('de-de');
    void m.loadMessages('de-de');
    const table = { ...en, choosePlan: 'Wählen Sie Ihr Paket' };
    resolve(table);
    await p;
    expect(loadTable).toHaveBeenCalledTimes(1);
    expect(m.messagesFor('de-de').choosePlan).toBe('Wählen Sie Ihr Paket');
  });

  it('falls back to English when a table cannot be fetched', async () => {
    vi.doMock('./load', () => ({ loadTable: () => Promise.reject(new Error('404')) }));
    const m = await import('./messages');
    await m.loadMessages('nl-nl');
    expect(m.isLoaded('nl-nl')).toBe(true);
    expect(m.messagesFor('nl-nl').choosePlan).toBe(en.choosePlan);
  });
});
