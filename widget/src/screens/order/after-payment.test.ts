import { fireEvent, waitFor, within } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { installApi } from '../../test/api/vitest';
import { body } from '../../test/api/fixtures';
import { mount } from '../../test/mount';
import { savePersisted, emptyPersisted } from '../../core/persisted';
import { timing } from '../../core/timing';

function signedInAs(email: string, order = '') {
  const p = emptyPersisted();
  savePersisted({
    ...p,
    auth: { loggedIn: true, user: { userid: 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab' } },
    user: { email },
    token: `tok-${email}`,
    order: { ...p.order, orderid: order },
  });
}

/** A text/event-stream answer the test writes event by event. */
function orderStream() {
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) });
  const enc = new TextEncoder();
  return {
    response: () => new Response(stream, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    status: (id: number, name: string) =>
      ctl.enqueue(enc.encode(`id: ${id}\nevent: status\ndata: ${JSON.stringify(body('order.get', name))}\n\n`)),
    drop: () => ctl.error(new TypeError('network error')),
  };
}

describe('waiting', () => {
  it('follows the order on its stream to success, without a poll, and emits the events as polling did', async () => {
    const api = installApi();
    const s = orderStream();
    api.on('order.events', () => s.response());
    signedInAs('buyer@example.com');
    history.replaceState(null, '', '/shop?sc_order=ord_storybook01');
    const { ui, of } = mount();
    await waitFor(() => expect(api.callsTo('order.events')).toHaveLength(1));
    expect(api.callsTo('order.events')[0]!.headers.get('authorization')).toBe('Bearer tok-buyer@example.com');
    s.status(1, '200.pending');
    const status = await ui_(ui).findByTestId('waiting-status');
    await waitFor(() => expect(status.dataset.status).toBe('pending'));
    s.status(2, '200.paid');
    await waitFor(() => expect(of('order-paid')).toEqual([{ orderId: 'ord_storybook01' }]));
    // No poll while waiting (the success page then reads the order once for itself).
    expect(api.callsTo('GET /orders/ord_storybook01')).toHaveLength(0);
    s.status(4, '200.active');
    expect((await ui_(ui).findByTestId('success-credentials')).textContent).toContain('sc91692420');
    expect(of('service-ready')).toEqual([{ orderId: 'ord_storybook01', serviceIds: ['svc_storybook01'] }]);
    expect(api.callsTo('order.events')).toHaveLength(1);
  });

  it('finishes through a stream opened again when its replica goes away', async () => {
    timing.pollMs = 5;
    const api = installApi();
    const first = orderStream();
    const second = orderStream();
    const streams = [first, second];
    api.on('order.events', () => streams.shift()!.response());
    signedInAs('buyer@example.com');
    history.replaceState(null, '', '/shop?sc_order=ord_storybook01');
    const { ui } = mount();
    await waitFor(() => expect(api.callsTo('order.events')).toHaveLength(1));
    first.status(3, '200.paid');
    first.drop();
    await waitFor(() => expect(api.callsTo('order.events')).toHaveLength(2));
    expect(api.callsTo('order.events')[1]!.headers.get('last-event-id')).toBe('3');
    second.status(5, '200.active');
    expect(await ui_(ui).findByTestId('success-credentials')).toBeTruthy();
  });

  it('polls the order every interval and moves to success when active', async () => {
    const api = installApi();
    api.on('order.get', ['200.pending', '200.paid', '200.provisioning', '200.active']);
    signedInAs('buyer@example.com');
    history.replaceState(null, '', '/shop?sc_order=ord_storybook01');
    const { ui, of } = mount();
    expect((await ui_(ui).findByTestId('success-credentials')).textContent).toContain('sc91692420');
    const polls = api.callsTo('GET /orders/ord_storybook01');
    expect(polls.length).toBeGreaterThanOrEqual(4);
    expect(polls[0]!.headers.get('authorization')).toBe('Bearer tok-buyer@example.com');
    expect(of('order-paid')).toEqual([{ orderId: 'ord_storybook01' }]);
    expect(of('service-ready')).toEqual([{ orderId: 'ord_storybook01', serviceIds: ['svc_storybook01'] }]);
  });

  it('shows the waiting status while the payment is pending', async () => {
    const api = installApi();
    api.on('order.get', ['200.pending']);
    signedInAs('buyer@example.com', 'ord_storybook01');
    const { ui } = mount({ routing: 'history', base: '/checkout/' });
    history.replaceState(null, '', '/checkout/waiting');
    // (history routing reads the URL when mounting; mount again on the waiting URL)
    document.body.innerHTML = '';
    const second = mount({ routing: 'history', base: '/checkout/' });
    const status = await ui_(second.ui).findByTestId('waiting-status');
    await waitFor(() => expect(status.textContent).toBe('Waiting for your payment to be confirmed…'));
    expect(api.callsTo('GET /orders/ord_storybook01').length).toBeGreaterThan(0);
    void ui;
  });

  it('shows what a crypto gateway asks, and at which rate, while the order is pending', async () => {
    const api = installApi();
    const quote = { amount: '14.03', currency: 'USDC', network: 'base', rate: '1.08', rateTakenAt: '2026-11-23T10:00:00Z' };
    api.on('order.get', () => ({
      ...body<object>('order.get', '200.pending'),
      serviceIds: [],
      paymentUrl: 'https://payments.coinbase.com/payment-links/pl_1',
      paymentDeadline: '',
      paymentQuote: quote,
    }));
    signedInAs('buyer@example.com', 'ord_storybook01');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    const { ui } = mount();
    const line = await ui_(ui).findByTestId('payment-quote');
    expect(line.textContent).toBe('To pay: 14.03 USDC on base (1 EUR = 1.08 USDC)');
  });

  it('says a payment the provider has seen is being confirmed, and offers neither paying nor cancelling', async () => {
    const api = installApi();
    const quote = { amount: '14.03', currency: 'USDC', network: 'base', rate: '1.08', rateTakenAt: '2026-11-23T10:00:00Z' };
    const pending = {
      ...body<object>('order.get', '200.pending'),
      serviceIds: [],
      paymentUrl: 'https://payments.coinbase.com/payment-links/pl_1',
      paymentDeadline: '',
      paymentQuote: quote,
    };
    let polls = 0;
    api.on('order.get', () => (polls++ === 0 ? pending : { ...pending, paymentState: 'processing' }));
    signedInAs('buyer@example.com', 'ord_storybook01');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    const { ui } = mount();
    const status = await ui_(ui).findByTestId('waiting-status');
    await waitFor(() => expect(status.textContent).toBe('Payment seen. Confirming it…'), { timeout: 3 * timing.pollMs + 1000 });
    expect(status.dataset.status).toBe('pending');
    expect(status.dataset.paymentState).toBe('processing');
    expect(ui().queryByTestId('cancel-order')).toBeNull();
    expect(ui().queryByTestId('payment-quote')).toBeNull();
    expect(ui().queryByText('Complete your payment')).toBeNull();
  });

  it('shows the fraud view when the order is held, and stops polling', async () => {
    const api = installApi();
    api.on('order.get', ['200.pending', '200.fraud']);
    signedInAs('buyer@example.com');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    timing.pollMs = 7; // a delay nothing else uses, to recognise the poll timers
    const timers = vi.spyOn(window, 'setTimeout');
    const { ui } = mount();
    const fraud = await ui_(ui).findByTestId('fraud-error');
    expect(fraud.textContent).toContain('We could not complete your order');
    expect(fraud.textContent).toContain('Order ord_storybook01');
    // Every answer but the last (fraud) scheduled the next poll: polling has stopped.
    const polls = api.callsTo('GET /orders/ord_storybook01').length;
    expect(polls).toBe(2);
    expect(timers.mock.calls.filter(([, ms]) => ms === 7)).toHaveLength(polls - 1);
    const cookie = JSON.parse(decodeURIComponent(document.cookie.match(/checkout=([^;]+)/)![1]!));
    expect(cookie.order.fraud).toBe(true);
  });

  it('says a payment the order could no longer take is refunded, and stops polling', async () => {
    const api = installApi();
    api.on('order.get', ['200.pending', '200.needs-review']);
    signedInAs('buyer@example.com');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    timing.pollMs = 7;
    const timers = vi.spyOn(window, 'setTimeout');
    const { ui } = mount();
    const notice = await ui_(ui).findByTestId('review-notice');
    expect(notice.textContent).toContain('We received a payment this order can no longer take');
    expect(notice.textContent).toContain('Your payment will be refunded.');
    expect(notice.textContent).toContain('Order ord_storybook01');
    expect(notice.textContent).not.toContain('No payment has been taken');
    const polls = api.callsTo('GET /orders/ord_storybook01').length;
    expect(polls).toBe(2);
    expect(timers.mock.calls.filter(([, ms]) => ms === 7)).toHaveLength(polls - 1);
  });

  // An order refunded in full (the console's refund) was paid: its page says it was refunded and
  // where the credit note is, not that nothing was charged, and stops reading it.
  it('says a refunded order was refunded, and stops polling', async () => {
    const api = installApi();
    api.on('order.get', () => ({ ...body<object>('order.get', '200.active'), status: 'refunded' }));
    signedInAs('buyer@example.com');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    timing.pollMs = 7;
    const timers = vi.spyOn(window, 'setTimeout');
    const { ui } = mount();
    const status = await ui_(ui).findByTestId('waiting-status');
    await waitFor(() => expect(status.dataset.status).toBe('refunded'));
    expect(ui().getByRole('heading', { name: 'This order was refunded.' })).toBeTruthy();
    expect(status.textContent).toContain('under Orders and invoices');
    expect(status.textContent).not.toContain('Nothing has been charged');
    // No next read was scheduled.
    expect(timers.mock.calls.filter(([, ms]) => ms === 7)).toHaveLength(0);
    expect(api.callsTo('GET /orders/ord_storybook01')).toHaveLength(1);
  });

  // A partial refund leaves the lines bought: the success page with its receipt.
  it('takes a partially refunded order to its success page', async () => {
    const api = installApi();
    api.on('order.get', () => ({ ...body<object>('order.get', '200.active'), status: 'partially_refunded' }));
    signedInAs('buyer@example.com');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    const { ui } = mount();
    expect(await ui_(ui).findByTestId('receipt')).toBeTruthy();
  });

  // The order mail's link opened where this browser has no session for the order (another device):
  // it said "Your session has expired. Please try again."; now the way in, signing in.
  it.each([
    ['en', 'Sign in to see this order', 'Sign in'],
    ['de-de', 'Melden Sie sich an, um diese Bestellung zu sehen', 'Anmelden'],
  ])('offers to sign in when this browser has no session for the order (%s)', async (locale, title, action) => {
    installApi();
    history.replaceState(null, '', '/checkout/waiting?order=ord_storybook01');
    const { ui } = mount({ locale, routing: 'history', base: '/checkout/' });
    const view = await ui_(ui).findByTestId('order-sign-in');
    expect(within(view).getByRole('heading').textContent).toBe(title);
    expect(view.textContent).not.toMatch(/expired|abgelaufen/);
    const link = within(view).getByTestId('order-sign-in-link');
    expect(link.textContent).toBe(action);
    fireEvent.click(link);
    expect(await ui_(ui).findByTestId('signin-form')).toBeTruthy();
    expect(location.search).toContain('view=services');
  });

  it('says so when the order is not ours', async () => {
    const api = installApi();
    api.on('order.get', '404');
    signedInAs('buyer@example.com');
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    const { ui } = mount();
    expect(await ui_(ui).findByText('We could not find what you were looking for.')).toBeTruthy();
  });
});

describe('success', () => {
  it('copies credentials with "Copied!" for a while, downloads the playlist with the token, lists apps and cards', async () => {
    const api = installApi();
    api.on('order.get', ['200.active']);
    signedInAs('buyer@example.com');
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const createObjectURL = vi.fn(() => 'blob:playlist');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(`${this.download} ${this.href}`);
    });
    history.replaceState(null, '', '/?sc_order=ord_storybook01');
    timing.copiedMs = 300;
    const { ui } = mount();
    // The credentials card's own buttons (the device setup panel below has more).
    const buttons = within(await ui_(ui).findByTestId('success-credentials')).getAllByTestId('copy-button');
    expect(buttons).toHaveLength(3);
    expect(buttons[1]!.textContent).toBe('Copy');
    fireEvent.click(buttons[1]!);
    await waitFor(() => expect(buttons[1]!.textContent).toBe('Copied!'));
    expect(writeText).toHaveBeenCalledWith('sc91692420');
    expect(buttons[2]!.textContent).toBe('Copy');
    await waitFor(() => expect(buttons[1]!.textContent).toBe('Copy'));

    fireEvent.click(ui_(ui).getByTestId('m3u-download'));
    await waitFor(() => expect(clicks).toEqual(['sc91692420.m3u blob:playlist']));
    const playlist = api.callsTo('GET /services/svc_storybook01/playlist.m3u')[0]!;
    expect(playlist.headers.get('authorization')).toBe('Bearer tok-buyer@example.com');

    expect(ui_(ui).getByText('IPTV Smarters Pro')).toBeTruthy();
    expect(ui_(ui).getByText('Setup guide')).toBeTruthy();
    expect(ui_(ui).getByText('February 1, 2030')).toBeTruthy();
    // Spec §4: success clears the order and invoice ids; the client product is kept without secrets.
    const cookie = JSON.parse(decodeURIComponent(document.cookie.match(/checkout=([^;]+)/)![1]!));
    expect(cookie.order.orderid).toBe('');
    expect(cookie.order.serviceid).toEqual(['svc_storybook01']);
    expect(cookie.productDetails).toEqual({
      serviceid: 'svc_storybook01',
      name: 'Standard',
      status: 'Active',
      username: 'sc91692420',
      serverhostname: 'line.streamcart.local:8000',
    });
    expect(JSON.stringify(cookie)).not.toContain('865762160918');
  });
});

describe('malformed answers', () => {
  it('shows the generic error view instead of crashing, and recovers on retry', async () => {
    const api = installApi();
    // Off the contract on purpose: a product of the wrong shape.
    api.on('catalog.listProducts', () => ({ products: [{ pid: 'two', name: 7 }] }), { offContract: true });
    const { ui, of } = mount();
    const view = await ui_(ui).findByTestId('error-view');
    expect(view.textContent).toContain('Something went wrong');
    expect(view.textContent).toContain('We received an unexpected answer from the server.');
    expect(of('error')[0]).toMatchObject({ name: 'malformed' });
    api.on('catalog.listProducts', () => ({ products: [] }));
    fireEvent.click(ui_(ui).getByText('Try again'));
    expect(await ui_(ui).findByText('No plans are available right now. Please check back soon.')).toBeTruthy();
  });

  it('treats a body that is not JSON as malformed', async () => {
    const api = installApi();
    api.on('pricing.quote', () => new Response('<html>proxy error</html>', { status: 200 }), { offContract: true });
    const { ui } = mount();
    expect(await ui_(ui).findByTestId('error-view')).toBeTruthy();
  });
});

/** The query helper, once the shadow root has content. */
function ui_(ui: () => ReturnType<ReturnType<typeof mount>['ui']>) {
  return {
    findByTestId: async (id: string) => {
      await waitFor(() => ui());
      return ui().findByTestId(id);
    },
    findByText: async (text: string) => {
      await waitFor(() => ui());
      return ui().findByText(text);
    },
    getAllByTestId: (id: string) => ui().getAllByTestId(id),
    getByTestId: (id: string) => ui().getByTestId(id),
    getByText: (text: string) => ui().getByText(text),
  };
}
