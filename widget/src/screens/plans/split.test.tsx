// The first paint is the plan cards; the checkout form is its own chunk (screens/checkout), asked
// for once the cards have painted or as soon as the buyer acts, and the order pages theirs. Here
// each chunk is a promise this file settles.
// It runs in a vitest run of its own (package.json "test"): after aftersale.test.ts in the same run
// the checkout form appeared before its mocked chunk was released (order-dependent, not traced yet).
import { fireEvent, waitFor } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { installApi } from '../../test/api/vitest';
import { mount } from '../../test/mount';

type Gate = { resolve: () => void; reject: (e: Error) => void };

const chunks = vi.hoisted(() => ({
  checkout: [] as Gate[],
  order: [] as Gate[],
  /** Plan cards on screen when the checkout chunk was asked for. */
  cardsAtRequest: [] as number[],
}));

function gate(list: Gate[]): Promise<void> {
  return new Promise((resolve, reject) => list.push({ resolve, reject }));
}

vi.mock('../checkout', async (original) => {
  const root = document.querySelector('streamcart-checkout')?.shadowRoot;
  chunks.cardsAtRequest.push(root?.querySelectorAll('[data-testid="plan-card"]').length ?? 0);
  await gate(chunks.checkout);
  return original();
});
vi.mock('../order', async (original) => {
  await gate(chunks.order);
  return original();
});

const cards = (el: Element) => Array.from(el.shadowRoot?.querySelectorAll<HTMLElement>('[data-testid="plan-card"]') ?? []);
const card = (el: Element, pid: number) => el.shadowRoot!.querySelector<HTMLElement>(`[data-testid="plan-card"][data-pid="${pid}"]`)!;

// One test, in order: the chunks are modules, loaded once per file (hence landing.test.tsx).
describe('the plan cards first, the checkout form after them', () => {
  it('paints the cards without the form, asks for it after they painted, and keeps the buyer’s place when it comes', async () => {
    const api = installApi();
    const { el, ui, of } = mount();
    // Connecting the element sent the catalog request before React rendered anything.
    expect(api.callsTo('catalog.listProducts')).toHaveLength(1);
    await waitFor(() => expect(cards(el)).toHaveLength(3));
    expect(cards(el).find((c) => c.getAttribute('aria-checked') === 'true')?.dataset.pid).toBe('2');
    expect(ui().queryByTestId('pay-button')).toBeNull();
    await waitFor(() => expect(chunks.checkout).toHaveLength(1));
    expect(chunks.cardsAtRequest).toEqual([3]);
    // The form's catalog reads start after the paint, with its chunk.
    await waitFor(() => expect(api.callsTo('catalog.listGateways')).toHaveLength(1));
    expect(api.callsTo('catalog.listCurrencies')).toHaveLength(1);

    // Enter on a card before the form is there: the plan is chosen, the card keeps the focus…
    card(el, 3).focus();
    fireEvent.keyDown(card(el, 3), { key: ' ' });
    await waitFor(() => expect(card(el, 3).getAttribute('aria-checked')).toBe('true'));
    fireEvent.keyDown(card(el, 3), { key: 'Enter' });
    expect(of('plan-selected')).toEqual([{ pid: 3, billingCycle: 'monthly' }]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ui().queryByTestId('billing-cycle')).toBeNull();
    expect(el.shadowRoot!.activeElement).toBe(card(el, 3));
    const link = ui().getByTestId('manage-services');

    // …and goes on to the form once it arrives; the cards and the link above them stay as they were.
    chunks.checkout[0]!.resolve();
    const cycle = await ui().findByTestId('billing-cycle');
    await waitFor(() => expect(el.shadowRoot!.activeElement).toBe(cycle));
    expect(card(el, 3).getAttribute('aria-checked')).toBe('true');
    expect(link.isConnected).toBe(true);
    await ui().findByTestId('pay-button');
    // The form used the answers fetched early instead of asking again.
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).not.toBe('—'));
    expect(api.callsTo('catalog.listProducts')).toHaveLength(1);
    expect(api.callsTo('catalog.listGateways')).toHaveLength(1);
  });
});
