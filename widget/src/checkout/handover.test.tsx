// The full plan page replaces the first script's shell (PlansShell) while a fast keyboard user may
// already be on one of its controls: the focus goes to the same control in the new markup.
import { waitFor } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../test/fakeApi';
import { mount } from '../test/mount';
import type { Checkout } from './entry';

const chunk = vi.hoisted(() => ({ pending: [] as ((c: unknown) => void)[] }));

vi.mock('./parts', () => import('./parts.lazy'));
vi.mock('./fetch', () => ({ fetchCheckout: () => new Promise((resolve) => chunk.pending.push(resolve)) }));

async function realChunk(): Promise<Checkout> {
  const parts = await vi.importActual<typeof import('./parts')>('./parts');
  return { ...parts, schemas: await import('../api/schemas.later'), english: await import('../i18n/english'), css: '' };
}

describe('the shell handing over to the full plan page', () => {
  it('keeps the focus on "Manage my services" when the checkout module arrives', async () => {
    installFakeApi();
    const { el, ui } = mount();
    const link = await waitFor(() => ui().getByTestId('manage-services'));
    await waitFor(() => expect(chunk.pending).toHaveLength(1));
    expect(ui().queryByTestId('pay-button')).toBeNull();
    link.focus();
    chunk.pending[0]!(await realChunk());
    await ui().findByTestId('pay-button');
    // A new link (the chunk's own markup), with the focus.
    expect(link.isConnected).toBe(false);
    expect(el.shadowRoot!.activeElement).toBe(ui().getByTestId('manage-services'));
  });
});
