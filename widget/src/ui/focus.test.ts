// Keyboard focus across steps: a fresh landing page leaves focus alone; once the visitor works in
// the widget, a new step, an order failure, Apply/Remove and the cancel question keep the focus
// inside the widget instead of dropping it on the page.
import { fireEvent, waitFor } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../core/browser';
import { apiError, byDefault, installApi } from '../test/api/vitest';
import { body } from '../test/api/fixtures';
import { mount, mountIndex } from '../test/mount';

type Mounted = Awaited<ReturnType<typeof mountIndex>>;

/** The element with the focus, inside the widget's shadow root when it is there. */
function focused(m: Mounted): Element | null {
  return document.activeElement === m.el ? m.el.shadowRoot!.activeElement : document.activeElement;
}

async function typeEmail(m: Mounted) {
  const input = m.ui().getByTestId<HTMLInputElement>('email-input');
  input.focus();
  fireEvent.change(input, { target: { value: 'buyer@example.com' } });
  await waitFor(() => expect(m.ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
}

describe('focus', () => {
  it('leaves the focus with the page when the plans first show', async () => {
    installApi();
    const m = await mountIndex();
    expect(document.activeElement).toBe(document.body);
    expect(m.ui().getByRole('heading', { name: 'Choose your plan' }).tabIndex).toBe(-1);
  });

  it('gives the next step its heading, and an order failure its message', async () => {
    const api = installApi();
    let fail: (r: Response) => void = () => undefined;
    api.on('order.create', () => new Promise<Response>((resolve) => (fail = resolve)));
    const m = await mountIndex();
    await typeEmail(m);
    const pay = m.ui().getByTestId('pay-button');
    pay.focus();
    fireEvent.click(pay);
    const creating = await m.ui().findByRole('heading', { name: 'Creating your order…' });
    await waitFor(() => expect(focused(m)).toBe(creating));
    await waitFor(() => expect(api.callsTo('order.create')).toHaveLength(1));
    fail(apiError(503, 'unavailable', 'Try later'));
    const alert = await m.ui().findByText('The service is busy right now. Please try again in a moment.');
    await waitFor(() => expect(focused(m)).toBe(alert));
  });

  it('moves from Apply to Remove and from Remove back to the field', async () => {
    installApi();
    const m = await mountIndex();
    const input = m.ui().getByTestId('promo-input');
    fireEvent.change(input, { target: { value: 'WELCOME10' } });
    const apply = m.ui().getByTestId('promo-apply');
    apply.focus();
    fireEvent.click(apply);
    const remove = await m.ui().findByTestId('promo-remove');
    await waitFor(() => expect(focused(m)).toBe(remove));
    fireEvent.click(remove);
    await waitFor(() => expect(focused(m)).toBe(m.ui().getByTestId('promo-input')));
  });

  it('puts the cancel question on its safe answer and returns to "Cancel order"', async () => {
    const api = installApi();
    api.on('order.get', ['200.pending']);
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const m = await mountIndex();
    await typeEmail(m);
    m.ui().getByTestId('pay-button').focus();
    fireEvent.click(m.ui().getByTestId('pay-button'));
    await waitFor(() => expect(api.callsTo('order.create')).toHaveLength(1));
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

/** A request answered only when the test says so. */
function held() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release: () => release() };
}

/** Focusable controls of the checkout form, in document order. */
function controls(m: ReturnType<typeof mount>): HTMLElement[] {
  return Array.from(m.el.shadowRoot!.querySelectorAll<HTMLElement>('.sc-form input, .sc-form select, .sc-form button')).filter(
    (el) => !(el as HTMLInputElement).disabled,
  );
}

// A fast keyboard user is in the form before its answers (payment methods, quote, a code from the
// page) are there: what they arrive with must not take away the control the focus is on.
describe('focus while the form loads', () => {
  it("keeps the focus on the buyer's control when a free trial's quote comes late", async () => {
    const api = installApi();
    const lateQuote = held();
    api.on('pricing.quote', async (call) => {
      await lateQuote.gate;
      return byDefault(call);
    });
    const m = mount({ plan: '1' });
    await waitFor(() => expect(m.el.shadowRoot?.querySelector('[data-testid="billing-cycle"]')).toBeTruthy());
    await waitFor(() => expect(api.callsTo('catalog.listGateways')).toHaveLength(1));
    await waitFor(() => expect(api.callsTo('pricing.quote')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The last control of the form, where Tab has taken the buyer while the total is not there.
    const last = controls(m).at(-1)!;
    last.focus();
    lateQuote.release();
    await waitFor(() => expect(m.ui().getByTestId('price-total').textContent).toMatch(/0[.,]00/));
    expect(last.isConnected).toBe(true);
    expect(focused(m)).toBe(last);
    expect(m.ui().queryAllByTestId('gateway-option')).toHaveLength(0);
  });

  it("hands the focus from Apply to Remove when the page's code is accepted while the buyer is on Apply", async () => {
    const api = installApi();
    const promo = held();
    api.on('promotion.get', async () => {
      await promo.gate;
      return body('promotion.get', '200');
    });
    const m = mount({ promocode: 'WELCOME10' });
    const apply = await waitFor(() => {
      const b = m.el.shadowRoot?.querySelector<HTMLButtonElement>('[data-testid="promo-apply"]');
      expect(b?.getAttribute('aria-busy')).toBe('true');
      return b!;
    });
    apply.focus();
    promo.release();
    const remove = await m.ui().findByTestId('promo-remove');
    expect(focused(m)).toBe(remove);
  });

  it('keeps the focused pay button focusable while a late code re-prices the order', async () => {
    const api = installApi();
    const promo = held();
    api.on('promotion.get', async () => {
      await promo.gate;
      return body('promotion.get', '200');
    });
    const repriced = held();
    api.on('pricing.quote', async (call) => {
      // The re-priced order (the code applied: 12.99 less 10 %) is answered when the test says so.
      if (call.body?.promoCode) await repriced.gate;
      return byDefault(call);
    });
    const m = mount({ promocode: 'WELCOME10' });
    const pay = await waitFor(() => {
      const b = m.el.shadowRoot?.querySelector<HTMLButtonElement>('[data-testid="pay-button"]');
      expect(b?.disabled).toBe(false);
      return b!;
    });
    pay.focus();
    promo.release();
    await waitFor(() => expect(pay.getAttribute('aria-disabled')).toBe('true'));
    // A disabled button would drop the focus on the page: this one stays enabled, and inert.
    expect(pay.disabled).toBe(false);
    expect(focused(m)).toBe(pay);
    fireEvent.click(pay);
    expect(api.callsTo('order.create')).toHaveLength(0);
    // Left while not ready, it is disabled as usual (out of the Tab order).
    m.ui().getByTestId('email-input').focus();
    await waitFor(() => expect(pay.disabled).toBe(true));
    pay.focus();
    repriced.release();
    await waitFor(() => expect(pay.textContent).toMatch(/11[.,]69/));
    expect(pay.disabled).toBe(false);
    expect(pay.getAttribute('aria-disabled')).toBeNull();
  });
});
