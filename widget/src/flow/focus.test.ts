// Keyboard focus across steps: a fresh landing page leaves focus alone; once the visitor works in
// the widget, a new step, an order failure, Apply/Remove and the cancel question keep the focus
// inside the widget instead of dropping it on the page.
import { fireEvent, waitFor } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../state/browser';
import { apiError, installFakeApi } from '../test/fakeApi';
import { mountIndex } from '../test/mount';

type Mounted = Awaited<ReturnType<typeof mountIndex>>;

/** The element with the focus, inside the widget's shadow root when it is there. */
function focused(m: Mounted): Element | null {
  return document.activeElement === m.el ? m.el.shadowRoot!.activeElement : document.activeElement;
}

async function typeEmail(m: Mounted) {
  const input = m.ui().getByTestId('email-input') as HTMLInputElement;
  input.focus();
  fireEvent.change(input, { target: { value: 'buyer@example.com' } });
  await waitFor(() => expect((m.ui().getByTestId('pay-button') as HTMLButtonElement).disabled).toBe(false));
}

describe('focus', () => {
  it('leaves the focus with the page when the plans first show', async () => {
    installFakeApi();
    const m = await mountIndex();
    expect(document.activeElement).toBe(document.body);
    expect(m.ui().getByRole('heading', { name: 'Choose your plan' }).tabIndex).toBe(-1);
  });

  it('gives the next step its heading, and an order failure its message', async () => {
    const api = installFakeApi();
    let fail: (r: Response) => void = () => undefined;
    api.on('POST /orders', () => new Promise<Response>((resolve) => (fail = resolve)));
    const m = await mountIndex();
    await typeEmail(m);
    const pay = m.ui().getByTestId('pay-button');
    pay.focus();
    fireEvent.click(pay);
    const creating = await m.ui().findByRole('heading', { name: 'Creating your order…' });
    await waitFor(() => expect(focused(m)).toBe(creating));
    await waitFor(() => expect(api.callsTo('POST /orders')).toHaveLength(1));
    fail(apiError(503, 'unavailable', 'Try later'));
    const alert = await m.ui().findByText('The service is busy right now. Please try again in a moment.');
    await waitFor(() => expect(focused(m)).toBe(alert));
  });

  it('moves from Apply to Remove and from Remove back to the field', async () => {
    installFakeApi();
    const m = await mountIndex();
    const input = m.ui().getByTestId('promo-input');
    fireEvent.change(input, { target: { value: 'SAVE10' } });
    const apply = m.ui().getByTestId('promo-apply');
    apply.focus();
    fireEvent.click(apply);
    const remove = await m.ui().findByTestId('promo-remove');
    await waitFor(() => expect(focused(m)).toBe(remove));
    fireEvent.click(remove);
    await waitFor(() => expect(focused(m)).toBe(m.ui().getByTestId('promo-input')));
  });

  it('puts the cancel question on its safe answer and returns to "Cancel order"', async () => {
    const api = installFakeApi();
    api.orderStatuses = ['pending'];
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const m = await mountIndex();
    await typeEmail(m);
    m.ui().getByTestId('pay-button').focus();
    fireEvent.click(m.ui().getByTestId('pay-button'));
    await waitFor(() => expect(api.callsTo('POST /orders')).toHaveLength(1));
    // Back from the payment page without paying: the waiting view.
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    const cancel = await m.ui().findByTestId('cancel-order');
    cancel.focus();
    fireEvent.click(cancel);
    const keep = await m.ui().findByRole('button', { name: 'Keep the order' });
    await waitFor(() => expect(focused(m)).toBe(keep));
    fireEvent.click(keep);
    await waitFor(() => expect(focused(m)).toBe(m.ui().getByTestId('cancel-order')));
  });
});
