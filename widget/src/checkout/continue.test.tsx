// Enter on a plan card before dist/checkout.js is there: the plan is chosen and, once the module has
// arrived, the buyer is taken on to the checkout form, as Enter does on the full page.
import { fireEvent, waitFor } from '@testing-library/dom';
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

const card = (el: Element, pid: number) => el.shadowRoot!.querySelector<HTMLElement>(`[data-testid="plan-card"][data-pid="${pid}"]`)!;

describe('a plan card chosen before the checkout module is there', () => {
  it('goes on to the checkout form with Enter once the module arrives', async () => {
    installFakeApi();
    const { el, ui, of } = mount();
    await waitFor(() => expect(card(el, 3)).toBeTruthy());
    await waitFor(() => expect(chunk.pending).toHaveLength(1));
    card(el, 3).focus();
    fireEvent.keyDown(card(el, 3), { key: ' ' });
    await waitFor(() => expect(card(el, 3).getAttribute('aria-checked')).toBe('true'));
    fireEvent.keyDown(card(el, 3), { key: 'Enter' });
    expect(of('plan-selected')).toEqual([{ pid: 3, billingCycle: 'monthly' }]);
    // Still the shell: nothing to go on to yet, the card keeps the focus.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ui().queryByTestId('billing-cycle')).toBeNull();
    expect(el.shadowRoot!.activeElement).toBe(card(el, 3));

    chunk.pending[0]!(await realChunk());
    const cycle = await ui().findByTestId('billing-cycle');
    expect(el.shadowRoot!.activeElement).toBe(cycle);
    expect(card(el, 3).getAttribute('aria-checked')).toBe('true');
  });
});
