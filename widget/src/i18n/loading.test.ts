import { afterEach, describe, expect, it, vi } from 'vitest';
import { texts as en } from './en/plans';

afterEach(() => {
  vi.doUnmock('./de-de/plans');
  vi.doUnmock('./nl-nl/plans');
  vi.resetModules();
});

describe('text tables load on demand', () => {
  it('has English plan texts at once, loads a translated table once, then uses it', async () => {
    let resolve!: (m: unknown) => void;
    const factory = vi.fn(() => new Promise((r) => (resolve = r)));
    vi.doMock('./de-de/plans', factory);
    const m = await import('./messages');
    expect(m.isLoaded('en')).toBe(true);
    expect(m.tableOf('en', 'plans')).toBe(en);
    expect(m.isLoaded('de-de')).toBe(false);
    expect(() => m.tableOf('de-de', 'plans')).toThrow();
    const p = m.loadMessages('de-de');
    void m.loadMessages('de-de');
    await vi.waitFor(() => expect(factory).toHaveBeenCalled());
    resolve({ texts: { ...en, choosePlan: 'Wählen Sie Ihr Paket' } });
    await p;
    expect(factory).toHaveBeenCalledTimes(1);
    expect(m.isLoaded('de-de')).toBe(true);
    expect(m.tableOf('de-de', 'plans').choosePlan).toBe('Wählen Sie Ihr Paket');
  });

  it('falls back to English when a table cannot be fetched', async () => {
    vi.doMock('./nl-nl/plans', () => {
      throw new Error('404');
    });
    const m = await import('./messages');
    await m.loadMessages('nl-nl');
    expect(m.isLoaded('nl-nl')).toBe(true);
    expect(m.tableOf('nl-nl', 'plans')).toBe(m.tableOf('en', 'plans'));
  });

  it('loads for a language switch the areas some screen has needed', async () => {
    const m = await import('./messages');
    await m.loadTexts('en', ['checkout']);
    expect(m.hasTexts('en', ['checkout'])).toBe(true);
    expect(m.isLoaded('es-es')).toBe(false);
    await m.loadMessages('es-es');
    expect(m.hasTexts('es-es', ['plans', 'checkout'])).toBe(true);
    expect(m.hasTexts('es-es', ['order'])).toBe(false);
  });
});
