// The script-tag builds' split, in jsdom: App gets parts.lazy.tsx's stand-ins (as vite.config.ts
// swaps them in), and dist/checkout.js is a promise this file settles.
import { fireEvent, waitFor } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../test/fakeApi';
import { mount } from '../test/mount';
import type { Checkout } from './entry';

const chunk = vi.hoisted(() => ({
  pending: [] as { resolve: (c: unknown) => void; reject: (e: unknown) => void }[],
  /** Plan cards on screen when the module was asked for. */
  cardsAtRequest: [] as number[],
}));

vi.mock('./parts', () => import('./parts.lazy'));
vi.mock('./fetch', () => ({
  fetchCheckout: () => {
    const root = document.querySelector('streamcart-checkout')?.shadowRoot;
    chunk.cardsAtRequest.push(root?.querySelectorAll('[data-testid="plan-card"]').length ?? 0);
    return new Promise((resolve, reject) => chunk.pending.push({ resolve, reject }));
  },
}));

async function realChunk(): Promise<Checkout> {
  const parts = await vi.importActual<typeof import('./parts')>('./parts');
  return { ...parts, schemas: await import('../api/schemas.later'), english: await import('../i18n/english'), css: '' };
}

const cards = (el: Element) => Array.from(el.shadowRoot?.querySelectorAll<HTMLElement>('[data-testid="plan-card"]') ?? []);

describe('the plan cards first, the checkout module after them', () => {
  it('shows an automatic order under way at once, not the plans, while the module loads', async () => {
    const api = installFakeApi();
    history.replaceState(null, '', '/?email=auto%40example.com&pid=2&auto_redirect=true');
    const { el, ui, of } = mount();
    await waitFor(() => ui().getByRole('heading', { name: 'Loading…' }));
    await waitFor(() => expect(chunk.pending).toHaveLength(1));
    expect(chunk.cardsAtRequest).toEqual([0]);
    expect(cards(el)).toHaveLength(0);
    expect(api.callsTo('GET /products')).toHaveLength(0);
    chunk.pending[0]!.reject(new Error('offline'));
    await waitFor(() => ui().getByTestId('error-view'));
    expect(of('error')).toEqual([{ name: 'network', message: 'offline' }]);
  });

  it('paints the cards from the first script and asks for the module only once they are painted; the full page takes over', async () => {
    const api = installFakeApi();
    const { el, ui } = mount();
    // Connecting the element sent the catalog request before React rendered anything.
    expect(api.callsTo('GET /products')).toHaveLength(1);
    await waitFor(() => expect(cards(el)).toHaveLength(3));
    expect(cards(el).find((c) => c.getAttribute('aria-checked') === 'true')?.dataset.pid).toBe('2');
    expect(ui().queryByTestId('pay-button')).toBeNull();
    await waitFor(() => expect(chunk.pending).toHaveLength(2));
    expect(chunk.cardsAtRequest).toEqual([0, 3]);
    // The form's catalog reads start with the module, after the paint.
    await waitFor(() => expect(api.callsTo('GET /gateways')).toHaveLength(1));
    expect(api.callsTo('GET /currencies')).toHaveLength(1);

    chunk.pending[1]!.reject(new Error('offline'));
    await ui().findByTestId('error-view');
    fireEvent.click(ui().getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(cards(el)).toHaveLength(3));
    await waitFor(() => expect(chunk.pending).toHaveLength(3));
    // A card with keyboard focus keeps it when the full plan page replaces the cards.
    cards(el)[2]!.focus();
    chunk.pending[2]!.resolve(await realChunk());
    await ui().findByTestId('pay-button');
    expect(el.shadowRoot!.activeElement).toBe(cards(el)[2]);
    expect(cards(el).find((c) => c.getAttribute('aria-checked') === 'true')?.dataset.pid).toBe('2');
    // The full page used the answers fetched early instead of asking again.
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).not.toBe('—'));
    expect(api.callsTo('GET /products')).toHaveLength(1);
    expect(api.callsTo('GET /gateways')).toHaveLength(1);
  });

  it('renders the full plan page at once when the module is already there', async () => {
    installFakeApi();
    const { ui } = mount();
    await waitFor(() => ui().getByTestId('pay-button'));
    expect(chunk.pending).toHaveLength(3);
  });
});
