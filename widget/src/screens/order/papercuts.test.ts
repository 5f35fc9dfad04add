// Issue 25's papercuts after Pay: the cart kept through a failed payment, a waiting page that says
// what it waits for, and "Go to your dashboard" that opens My services when the dashboard is the shop.
import { fireEvent, waitFor } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../core/browser';
import { emptyPersisted, savePersisted } from '../../core/persisted';
import { body } from '../../test/api/fixtures';
import { installApi } from '../../test/api/vitest';
import { mount, mountIndex } from '../../test/mount';

function signedIn(order: string) {
  const p = emptyPersisted();
  savePersisted({
    ...p,
    auth: { loggedIn: true, user: { userid: 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab' } },
    user: { email: 'buyer@example.com' },
    token: 'tok-buyer',
    order: { ...p.order, orderid: order },
  });
}

/** Mounts the element and waits for its shadow root's content. */
async function open(attrs: Record<string, string> = {}) {
  const m = mount(attrs);
  await waitFor(() => m.ui());
  return m;
}

describe('after a failed or cancelled payment', () => {
  it('"Back to plans" brings back the plan, cycle, extras and promo code of that order', async () => {
    const api = installApi();
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    history.replaceState(null, '', '/');
    const first = await mountIndex({ plan: '3', promocode: 'save5' });
    const ui = first.ui;
    fireEvent.change(ui().getByTestId('billing-cycle'), { target: { value: 'quarterly' } });
    fireEvent.click(ui().getByTestId('extra-connections-toggle'));
    fireEvent.change(await ui().findByTestId('extra-connections-count'), { target: { value: '3' } });
    fireEvent.click(ui().getByTestId('proxy-protection-toggle'));
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId('promo-message').textContent).toContain('SAVE5'));
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    await waitFor(() => expect(browser.assign).toHaveBeenCalled());
    expect(api.callsTo('order.create')[0]!.body).toMatchObject({
      pid: 3,
      billingCycle: 'quarterly',
      extraConnections: 2,
      proxyProtection: true,
    });

    // The payment page declines and sends the buyer back: a new page, the order failed.
    document.body.innerHTML = '';
    api.on('order.get', '200.failed');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    const back = await open();
    fireEvent.click(await back.ui().findByTestId('back-to-plans'));
    const cycle = await back.ui().findByTestId<HTMLSelectElement>('billing-cycle');
    await waitFor(() => expect(cycle.value).toBe('quarterly'));
    expect(back.ui().getByTestId<HTMLInputElement>('extra-connections-toggle').checked).toBe(true);
    expect(back.ui().getByTestId<HTMLInputElement>('extra-connections-count').value).toBe('3');
    expect(back.ui().getByTestId<HTMLInputElement>('proxy-protection-toggle').checked).toBe(true);
    expect(
      back
        .ui()
        .getAllByTestId('plan-card')
        .find((c) => c.getAttribute('aria-checked') === 'true')?.dataset.pid,
    ).toBe('3');
    await waitFor(() => expect(back.ui().getByTestId('promo-message').textContent).toContain('SAVE5'));
  });

  it('another order’s cart is not brought back', async () => {
    const api = installApi();
    sessionStorage.setItem(
      'streamcart:cart',
      JSON.stringify({
        orderId: 'ord_other',
        pid: 3,
        cycle: 'quarterly',
        extra: true,
        connections: 3,
        proxy: true,
        promoInput: '',
        gateway: null,
      }),
    );
    api.on('order.get', '200.failed');
    signedIn('ord_storybook01');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    const { ui } = await open();
    fireEvent.click(await ui().findByTestId('back-to-plans'));
    const cycle = await ui().findByTestId<HTMLSelectElement>('billing-cycle');
    expect(cycle.value).not.toBe('quarterly');
    expect(ui().getByTestId<HTMLInputElement>('proxy-protection-toggle').checked).toBe(false);
  });
});

describe('the waiting page', () => {
  it('says what it waits for before the first answer, not "Loading…"', async () => {
    const api = installApi();
    api.on('order.get', 'never');
    signedIn('ord_storybook01');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    const { ui } = await open();
    const status = await ui().findByTestId('waiting-status');
    expect(status.textContent).toBe('Waiting for your payment to be confirmed…');
  });
});

describe('"Go to your dashboard" on the success page', () => {
  it('opens My services when the dashboard is the shop itself', async () => {
    const api = installApi();
    api.on('order.get', '200.active');
    api.on('catalog.storefront', () => ({ ...body<Record<string, unknown>>('catalog.storefront', '200'), dashboardUrl: '/checkout/' }));
    signedIn('ord_storybook01');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    const { ui } = await open();
    const link = await ui().findByTestId<HTMLAnchorElement>('dashboard-link');
    expect(link.getAttribute('target')).toBeNull();
    expect(link.getAttribute('href')).toContain('sc_view=services');
    fireEvent.click(link);
    await ui().findByTestId('services-view');
  });

  it('goes to the seller’s external dashboard in a new tab', async () => {
    const api = installApi();
    api.on('order.get', '200.active');
    signedIn('ord_storybook01');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    const { ui } = await open();
    const link = await ui().findByTestId<HTMLAnchorElement>('dashboard-link');
    expect(link.getAttribute('href')).toBe('https://my.streamcart.example/');
    expect(link.getAttribute('target')).toBe('_blank');
  });
});
