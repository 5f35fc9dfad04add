// A landing URL that orders at once shows the order under way, never the plans, while the order
// pages' chunk loads; a chunk that cannot be loaded is the network error. Here each chunk is a
// promise this file settles.
import { waitFor } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../core/browser';
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

describe('an automatic order from the landing URL', () => {
  it('shows an automatic order under way at once, not the plans, and a chunk that does not load as a network error', async () => {
    const api = installApi();
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    history.replaceState(null, '', '/?email=auto%40example.com&pid=2&auto_redirect=true');
    const { el, ui, of } = mount();
    // While the order's chunk loads: the skeleton of a centred screen's head, announced, no heading.
    const status = await waitFor(() => ui().getByRole('status'));
    expect(status.textContent).toBe('Loading…');
    expect(status.querySelectorAll('.sc-skeleton')).toHaveLength(2);
    expect(ui().queryByRole('heading')).toBeNull();
    await waitFor(() => expect(chunks.order).toHaveLength(1));
    expect(cards(el)).toHaveLength(0);
    expect(api.callsTo('catalog.listProducts')).toHaveLength(0);
    chunks.order[0]!.reject(new Error('offline'));
    await waitFor(() => ui().getByTestId('error-view'));
    // (vitest wraps the failed import's error in its own message)
    expect(of('error')).toEqual([{ name: 'network', message: expect.any(String) }]);
  });

  it('says "loading" in the buyer’s language while a chunk loads', async () => {
    installApi();
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    history.replaceState(null, '', '/?email=auto%40example.com&pid=2&auto_redirect=true');
    const { ui } = mount({ locale: 'de-de' });
    const status = await waitFor(() => ui().getByRole('status'));
    expect(status.textContent).toBe('Wird geladen …');
  });
});
