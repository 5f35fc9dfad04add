// Issue 13 in the widget: renewals in "My services", the /renew page of a pay link, and the
// "Renew automatically with this card" consent at checkout.
import { fireEvent, waitFor, within } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { formatDate } from '../../i18n/format';
import { texts as en } from '../../i18n/en/aftersale';
import { texts as checkout } from '../../i18n/en/checkout';
import { texts as main } from '../../i18n/en/plans';
import { browser } from '../../core/browser';
import { emptyPersisted, savePersisted } from '../../core/persisted';
import { body } from '../../test/api/fixtures';
import { PAY_TOKEN } from '../../test/api/mock';
import { apiError, byDefault, installApi } from '../../test/api/vitest';
import { mount, mountIndex } from '../../test/mount';
import { pendingRenewal, rememberRenewal } from './renewal';

const HISTORY = { routing: 'history', base: '/checkout/' };
const PAYMENT = 'http://localhost:3000/checkout/api/payments/sandbox';
const TOKEN = body<{ token: string }>('session.create', '201.proven').token;
/** The fixtures' Standard line, its open renewal (services.list/200.renewal) and its pay link's invoice. */
const SVC = 'svc_storybook01';
const INVOICE = 'inv_storybookr1';
const RENEWAL = { serviceId: SVC, orderId: 'ord_storybookr1', invoiceId: INVOICE };

/** The fixtures' Standard line as `id`, changed by `over`. */
function service(id: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...body<{ services: object[] }>('services.list', '200').services[0], serviceId: id, ...over };
}

function signIn(email = 'buyer@example.com') {
  const p = emptyPersisted();
  savePersisted({
    ...p,
    auth: { loggedIn: true, user: { userid: 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab' } },
    user: { email },
    token: TOKEN,
  });
}

async function open(url: string, attrs: Record<string, string> = HISTORY) {
  history.replaceState(null, '', url);
  const m = mount(attrs);
  await waitFor(() => m.ui());
  return m;
}

/** "My services" with the given services; returns a query for one card by service id. */
async function services(list: Record<string, unknown>[]) {
  const api = installApi();
  api.on('services.list', () => ({ services: list }));
  signIn();
  const m = await open('/checkout/?view=services');
  await m.ui().findAllByTestId('service-card');
  const card = (id: string) =>
    within(
      m
        .ui()
        .getAllByTestId('service-card')
        .find((c) => c.dataset.serviceId === id)!,
    );
  return { api, card, ...m };
}

describe('renewals in My services', () => {
  it('shows every status badge, the next due date and the banner of an open renewal, and pays it', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const statuses = ['Pending', 'Active', 'Overdue', 'Suspended', 'Cancelled', 'Terminated', 'Expired'];
    const { api, card, ui, of } = await services([
      service(SVC, { renewalInvoiceId: INVOICE, renewalOrderId: RENEWAL.orderId }),
      ...statuses.filter((s) => s !== 'Active').map((status, i) => service(`s-${i + 2}`, { status, autoRenew: status !== 'Cancelled' })),
    ]);
    const badges = ui().getAllByTestId('service-status');
    expect(badges.map((b) => b.dataset.status)).toEqual([
      'Active',
      'Pending',
      'Overdue',
      'Suspended',
      'Cancelled',
      'Terminated',
      'Expired',
    ]);
    // jsdom's language is en-US: American spelling.
    expect(badges.map((b) => b.textContent)).toEqual(['Active', 'Pending', 'Overdue', 'Suspended', 'Canceled', 'Terminated', 'Expired']);
    const due = formatDate('2030-02-01', 'en-us');
    expect(card(SVC).getByText(due)).toBeTruthy();
    expect(card(SVC).getByTestId('renewal-due').textContent).toBe(en.renewalDue('€12.99', due));
    // Only the service with an open renewal invoice has the banner.
    expect(ui().getAllByTestId('renewal-banner')).toHaveLength(1);
    expect(card('s-4').getByTestId('renewal-warning').textContent).toBe(en.suspendedNote);
    expect(card('s-3').getByTestId('renewal-warning').textContent).toBe(en.overdueNote);

    fireEvent.click(card(SVC).getByTestId('renewal-pay'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${PAYMENT}/${INVOICE}`));
    const call = api.callsTo('POST /services/svc_storybook01/renew')[0]!;
    expect(call.body).toEqual({ billingCycle: 'monthly', returnUrl: `${location.origin}/checkout/?view=services` });
    expect(call.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(of('payment-started')).toEqual([{ orderId: RENEWAL.orderId, gateway: '', paymentUrl: `${PAYMENT}/${INVOICE}` }]);
    expect(pendingRenewal()).toEqual(RENEWAL);
  });

  it('renews early in another cycle of the same plan, also a suspended line; never a cancelled one', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { api, card } = await services([
      service(SVC, { status: 'Suspended' }),
      service('s-2', { status: 'Overdue' }),
      service('s-3', { status: 'Cancelled', autoRenew: false }),
      service('s-4', { status: 'Terminated', autoRenew: false }),
    ]);
    expect(card('s-2').getByTestId('service-renew')).toBeTruthy();
    expect(card('s-3').queryByTestId('service-renew')).toBeNull();
    expect(card('s-4').queryByTestId('service-renew')).toBeNull();

    fireEvent.click(card(SVC).getByTestId('service-renew'));
    const cycle = await card(SVC).findByTestId<HTMLSelectElement>('renew-cycle');
    // The plan's cycles from the catalog, the service's own first chosen.
    await waitFor(() => expect([...cycle.options].map((o) => o.value)).toEqual(['monthly', 'quarterly', 'semiannually', 'annually']));
    expect(cycle.value).toBe('monthly');
    const gateway = await card(SVC).findByTestId<HTMLSelectElement>('renew-gateway');
    fireEvent.change(cycle, { target: { value: 'annually' } });
    fireEvent.change(gateway, { target: { value: 'coinbase' } });

    // A refusal is shown by its error name.
    api.on('services.renew', () => apiError(409, 'conflict', 'not now'));
    fireEvent.click(card(SVC).getByTestId('renew-submit'));
    expect((await card(SVC).findByTestId('renewal-error')).textContent).toBe(en.errors.conflict);
    expect(assign).not.toHaveBeenCalled();

    api.on('services.renew', () => apiError(503, 'unavailable', 'gateway down'));
    fireEvent.click(card(SVC).getByTestId('renew-submit'));
    await waitFor(() => expect(card(SVC).getByTestId('renewal-error').textContent).toBe(main.errors.unavailable));

    api.calls.length = 0;
    api.on('services.renew', byDefault);
    fireEvent.click(card(SVC).getByTestId('renew-submit'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${PAYMENT}/${INVOICE}`));
    expect(api.callsTo('POST /services/svc_storybook01/renew')[0]!.body).toEqual({
      billingCycle: 'annually',
      gateway: 'coinbase',
      returnUrl: `${location.origin}/checkout/?view=services`,
    });
  });

  it('continues a trial with a paid plan and cycle of the catalog', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { api, card } = await services([body('services.get', '200.trial')]);
    const trial = card('svc_storybooktr');
    expect(trial.queryByTestId('service-renew')).toBeNull();
    expect(trial.queryByTestId('service-cancel-renew')).toBeNull();
    expect(trial.queryByTestId('service-resume')).toBeNull();
    fireEvent.click(trial.getByTestId('service-convert'));
    const plan = await trial.findByTestId<HTMLSelectElement>('renew-plan');
    await waitFor(() => expect([...plan.options].map((o) => o.textContent)).toEqual(['Standard', 'Premium']));
    fireEvent.change(plan, { target: { value: '3' } });
    const cycle = trial.getByTestId<HTMLSelectElement>('renew-cycle');
    await waitFor(() =>
      expect([...cycle.options].map((o) => o.textContent)).toEqual([
        'Monthly · €15.99',
        'Quarterly · €39.99',
        'Every 6 months · €69.99',
        'Yearly · €119.99',
      ]),
    );
    fireEvent.change(cycle, { target: { value: 'annually' } });
    fireEvent.click(trial.getByTestId('renew-submit'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${PAYMENT}/${INVOICE}`));
    expect(api.callsTo('POST /services/svc_storybooktr/renew')[0]!.body).toEqual({
      billingCycle: 'annually',
      pid: 3,
      gateway: 'sandbox',
      returnUrl: `${location.origin}/checkout/?view=services`,
    });
  });

  it('cancels auto-renew after a confirmation, then resumes it', async () => {
    const { api, card } = await services([service(SVC)]);
    const q = card(SVC);
    fireEvent.click(q.getByTestId('service-cancel-renew'));
    expect((await q.findByTestId('cancel-renew-confirm')).textContent).toContain(en.cancelAutoRenewConfirm('Standard'));
    fireEvent.click(q.getByTestId('cancel-renew-no'));
    fireEvent.click(await q.findByTestId('service-cancel-renew'));
    expect(api.callsTo('POST /services/svc_storybook01/cancel')).toHaveLength(0);
    fireEvent.click(await q.findByTestId('cancel-renew-yes'));
    await waitFor(() => expect(q.getByTestId('renewal-message').textContent).toBe(en.autoRenewCancelled));
    expect(api.callsTo('POST /services/svc_storybook01/cancel')[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(q.getByTestId('auto-renew-off').textContent).toBe(en.autoRenewOff(formatDate('2030-02-01', 'en-us')));
    expect(q.queryByTestId('service-cancel-renew')).toBeNull();

    fireEvent.click(q.getByTestId('service-resume'));
    await waitFor(() => expect(q.getByTestId('renewal-message').textContent).toBe(en.autoRenewResumed));
    expect(api.callsTo('POST /services/svc_storybook01/resume')).toHaveLength(1);
    expect(q.getByTestId('service-cancel-renew')).toBeTruthy();

    api.on('services.cancel', () => apiError(409, 'conflict', 'already cancelled'));
    fireEvent.click(q.getByTestId('service-cancel-renew'));
    fireEvent.click(await q.findByTestId('cancel-renew-yes'));
    await waitFor(() => expect(q.getByTestId('renewal-error').textContent).toBe(en.errors.conflict));
  });

  it('says when renewals are charged to the saved card', async () => {
    const { card } = await services([service(SVC, { renewsWithCard: true }), service('s-2')]);
    expect(card(SVC).getByTestId('renews-with-card').textContent).toBe(en.renewsWithCard);
    expect(card('s-2').queryByTestId('renews-with-card')).toBeNull();
  });

  it('after a declined card renewal, says so and to pay it with the banner, not that the card renews it', async () => {
    const open = { renewsWithCard: true, renewalInvoiceId: INVOICE, renewalOrderId: 'ord_storybookr1' };
    const { card } = await services([
      service(SVC, { ...open, status: 'Overdue', renewalCardCharge: 'declined' }),
      service('s-2', { ...open, renewalCardCharge: 'authentication_required' }),
      service('s-3', { ...open, renewalCardCharge: null }),
    ]);
    expect(card(SVC).getByTestId('card-charge-failed').textContent).toBe(en.cardDeclined);
    expect(card(SVC).queryByTestId('renews-with-card')).toBeNull();
    expect(card(SVC).queryByTestId('renewal-warning')).toBeNull(); // not "Renew now": the banner's Pay now
    expect(card(SVC).getByTestId('renewal-pay').textContent).toBe(en.payRenewal);
    expect(card('s-2').getByTestId('card-charge-failed').textContent).toBe(en.cardAuthRequired);
    expect(card('s-3').queryByTestId('card-charge-failed')).toBeNull();
    expect(card('s-3').getByTestId('renews-with-card').textContent).toBe(en.renewsWithCard);
  });

  it('back from paying a renewal, follows its order and announces it paid once', async () => {
    rememberRenewal(RENEWAL);
    const api = installApi();
    api.on('order.get', ['200.renewal-pending', '200.renewal-paid']);
    signIn();
    const { ui, of } = await open('/checkout/?view=services');
    await waitFor(() => expect(ui().getByTestId('renewal-return').dataset.state).toBe('paid'));
    expect(ui().getByTestId('renewal-return').textContent).toBe(en.renewalPaid);
    expect(of('renewal-paid')).toEqual([{ invoiceId: INVOICE, orderId: RENEWAL.orderId, serviceId: SVC }]);
    expect(api.callsTo(`GET /orders/${RENEWAL.orderId}`).length).toBeGreaterThanOrEqual(2);
    // The list is read again for the new due date.
    await waitFor(() => expect(api.callsTo('services.list').length).toBe(2));
    expect(pendingRenewal()).toBeNull();
  });

  it('forgets a renewal the buyer came back from without paying', async () => {
    rememberRenewal(RENEWAL);
    const api = installApi();
    api.on('order.get', ['200.cancelled']);
    signIn();
    const { ui, of } = await open('/checkout/?view=services');
    await ui().findAllByTestId('service-card');
    await waitFor(() => expect(pendingRenewal()).toBeNull());
    expect(ui().queryByTestId('renewal-return')).toBeNull();
    expect(of('renewal-paid')).toEqual([]);
  });
});

describe('the /renew page of a pay link', () => {
  it('shows the invoice and pays it through the chosen gateway without signing in', async () => {
    const api = installApi();
    api.on('invoices.get', '200.extra');
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { ui, of } = await open(`/checkout/renew?invoice=${INVOICE}&t=${PAY_TOKEN}`);
    await ui().findByTestId('renew-view');
    const get = api.callsTo(`GET /invoices/${INVOICE}`)[0]!;
    expect(get.headers.get('authorization')).toBeNull();
    expect(get.query.get('t')).toBe(PAY_TOKEN);
    expect(get.query.get('locale')).toBe('en-us');
    expect(ui().getByTestId('invoice-service').textContent).toBe('Standard');
    expect(ui().getByTestId('invoice-username').textContent).toBe('sc91692420');
    expect(ui().getByTestId('invoice-period').textContent).toBe(
      en.periodRange(formatDate('2030-02-01', 'en-us'), formatDate('2030-03-01', 'en-us')),
    );
    expect(ui().getByTestId('invoice-deadline').textContent).toBe(formatDate('2030-02-06', 'en-us'));
    expect(
      ui()
        .getAllByTestId('invoice-line')
        .map((l) => l.textContent),
    ).toEqual(['Standard — monthly€12.99', '1 extra connection€3.00']);
    expect(ui().getByTestId('invoice-total').textContent).toBe('€15.99');
    const options = ui().getAllByTestId('gateway-option');
    expect(options.map((o) => o.dataset.module)).toEqual(['sandbox', 'stripe', 'coinbase', 'cryptomus']);
    fireEvent.click(options[2]!.querySelector('input')!);
    fireEvent.click(ui().getByTestId('invoice-pay'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(`${PAYMENT}/${INVOICE}`));
    const pay = api.callsTo(`POST /invoices/${INVOICE}/pay`)[0]!;
    expect(pay.headers.get('authorization')).toBeNull();
    expect(pay.query.get('t')).toBe(PAY_TOKEN);
    expect(pay.body).toEqual({
      gateway: 'coinbase',
      returnUrl: `${location.origin}/checkout/renew?invoice=${INVOICE}&t=${PAY_TOKEN}&return=1`,
    });
    expect(of('payment-started')).toEqual([{ orderId: RENEWAL.orderId, gateway: 'coinbase', paymentUrl: `${PAYMENT}/${INVOICE}` }]);
    expect(api.callsTo('session.create')).toHaveLength(0);
  });

  // A taxed renewal (issue 25 walk): its pay page showed the lines and the total, not the VAT in it.
  it.each([
    ['', 'Net€13.44', 'VAT 19% (DE)€2.55', '€15.99'],
    ['de-de/', /^Netto13,44\s€$/, /^MwSt\. 19 % \(DE\)2,55\s€$/, /^15,99\s€$/],
  ])('shows the net and the VAT of a taxed renewal (/checkout/%srenew)', async (prefix, net, vat, total) => {
    const api = installApi();
    api.on('invoices.get', () => ({
      ...body<object>('invoices.get', '200.extra'),
      net: { amount: 1344, currency: 'EUR' },
      tax: { country: 'DE', rate: '19', amount: 255, currency: 'EUR', pricesIncludeTax: true, ipCountry: 'DE' },
    }));
    const { ui } = await open(`/checkout/${prefix}renew?invoice=${INVOICE}&t=${PAY_TOKEN}`);
    await ui().findByTestId('renew-view');
    const match = (id: string, want: string | RegExp) => {
      const text = ui().getByTestId(id).textContent;
      if (typeof want === 'string') expect(text).toBe(want);
      else expect(text).toMatch(want);
    };
    match('invoice-net', net);
    match('invoice-tax', vat);
    match('invoice-total', total);
  });

  it('shows no tax lines for an untaxed renewal', async () => {
    const api = installApi();
    api.on('invoices.get', '200.extra');
    const { ui } = await open(`/checkout/renew?invoice=${INVOICE}&t=${PAY_TOKEN}`);
    await ui().findByTestId('renew-view');
    expect(ui().queryByTestId('invoice-tax')).toBeNull();
    expect(ui().queryByTestId('invoice-net')).toBeNull();
  });

  it('works under a locale prefix, in that language', async () => {
    const api = installApi();
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { ui } = await open(`/checkout/de-de/renew?invoice=${INVOICE}&t=${PAY_TOKEN}`);
    await ui().findByTestId('renew-view');
    expect(ui().getByText('Abo verlängern')).toBeTruthy();
    expect(api.callsTo(`GET /invoices/${INVOICE}`)[0]!.query.get('locale')).toBe('de-de');
    fireEvent.click(ui().getByTestId('invoice-pay'));
    await waitFor(() => expect(api.callsTo(`POST /invoices/${INVOICE}/pay`)).toHaveLength(1));
    expect(api.callsTo(`POST /invoices/${INVOICE}/pay`)[0]!.body).toEqual({
      gateway: 'sandbox',
      returnUrl: `${location.origin}/checkout/de-de/renew?invoice=${INVOICE}&t=${PAY_TOKEN}&return=1`,
    });
  });

  it('back from the payment page, waits for the payment and shows the renewal paid', async () => {
    const api = installApi();
    api.on('invoices.get', ['200']);
    const { ui, of } = await open(`/checkout/renew?invoice=${INVOICE}&t=${PAY_TOKEN}&return=1`);
    expect((await ui().findByTestId('renew-confirming')).textContent).toContain(en.invoiceConfirming);
    // Still unpaid: it keeps asking.
    await waitFor(() => expect(api.callsTo(`GET /invoices/${INVOICE}`).length).toBeGreaterThanOrEqual(3));
    expect(ui().getByTestId('renew-confirming')).toBeTruthy();
    expect(of('renewal-paid')).toEqual([]);
    api.on('invoices.get', ['200.paid']);
    const paid = await ui().findByTestId('renew-paid');
    expect(paid.textContent).toContain(en.invoicePaidLead(formatDate('2030-03-01', 'en-us')));
    await waitFor(() => expect(of('renewal-paid')).toHaveLength(1));
    expect(of('renewal-paid')).toEqual([{ invoiceId: INVOICE, orderId: RENEWAL.orderId, serviceId: SVC }]);
  });

  it('shows the invoice paid when the payment arrived meanwhile (409 on pay)', async () => {
    const api = installApi();
    api.on('invoices.get', ['200', '200.paid']);
    api.on('invoices.pay', () => apiError(409, 'conflict', 'already paid'));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { ui, of } = await open(`/checkout/renew?invoice=${INVOICE}&t=${PAY_TOKEN}`);
    fireEvent.click(await ui().findByTestId('invoice-pay'));
    await ui().findByTestId('renew-paid');
    expect(assign).not.toHaveBeenCalled();
    await waitFor(() => expect(of('renewal-paid')).toHaveLength(1));
  });

  it.each([
    ['a stale or wrong token', `/checkout/renew?invoice=${INVOICE}&t=old-token`, 1],
    ['no token', `/checkout/renew?invoice=${INVOICE}`, 0],
    ['no invoice', `/checkout/renew?t=${PAY_TOKEN}`, 0],
  ])('%s: "This payment link is no longer valid"', async (_name, url, calls) => {
    const api = installApi();
    const { ui } = await open(url);
    const view = await ui().findByTestId('renew-invalid');
    expect(view.textContent).toContain('This payment link is no longer valid');
    expect(api.calls.filter((c) => c.path.startsWith('/invoices/'))).toHaveLength(calls);
  });

  it('opens from ?sc_invoice= on a page in memory routing and comes back there', async () => {
    const api = installApi();
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { ui } = await open(`/?sc_invoice=${INVOICE}&sc_t=${PAY_TOKEN}`, {});
    fireEvent.click(await ui().findByTestId('invoice-pay'));
    await waitFor(() => expect(api.callsTo(`POST /invoices/${INVOICE}/pay`)).toHaveLength(1));
    expect(api.callsTo(`POST /invoices/${INVOICE}/pay`)[0]!.body?.returnUrl).toBe(
      `http://localhost:3000/?sc_invoice=${INVOICE}&sc_t=${PAY_TOKEN}&sc_return=1`,
    );
  });
});

describe('Renew automatically with this card (checkout)', () => {
  function withStripe() {
    const api = installApi();
    api.on('catalog.listGateways', () => ({
      gateways: [
        { module: 'sandbox', displayName: 'Card (sandbox)' },
        { module: 'stripe', displayName: 'Card' },
      ],
      default: 'sandbox',
    }));
    return api;
  }

  async function pay(ui: ReturnType<typeof mount>['ui']) {
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
  }

  it('is offered for Stripe and a recurring plan only, unticked, with its consent text', async () => {
    withStripe();
    const { ui } = await mountIndex();
    expect(ui().queryByTestId('renew-with-card')).toBeNull();
    const stripe = (await ui().findAllByTestId('gateway-option')).find((o) => o.dataset.module === 'stripe')!;
    fireEvent.click(stripe.querySelector('input')!);
    const box = await ui().findByTestId<HTMLInputElement>('renew-with-card');
    expect(box.checked).toBe(false);
    expect(ui().getByText(checkout.renewWithCard)).toBeTruthy();
    expect(ui().getByTestId('renew-consent').textContent).toBe(checkout.renewWithCardConsent('each month'));
    fireEvent.change(ui().getByTestId('billing-cycle'), { target: { value: 'annually' } });
    await waitFor(() => expect(ui().getByTestId('renew-consent').textContent).toBe(checkout.renewWithCardConsent('each year')));
    // A free trial is not paid by card at all.
    fireEvent.click(
      ui()
        .getAllByTestId('plan-card')
        .find((c) => c.dataset.pid === '1')!,
    );
    await waitFor(() => expect(ui().queryByTestId('renew-with-card')).toBeNull());
  });

  it('sends renewWithCard only when ticked', async () => {
    const api = withStripe();
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { ui, el } = await mountIndex();
    fireEvent.click((await ui().findAllByTestId('gateway-option')).find((o) => o.dataset.module === 'stripe')!.querySelector('input')!);
    await ui().findByTestId('renew-with-card');
    await pay(ui);
    await waitFor(() => expect(api.callsTo('order.create')).toHaveLength(1));
    expect(api.callsTo('order.create')[0]!.body).toMatchObject({ gateway: 'stripe' });
    expect(api.callsTo('order.create')[0]!.body).not.toHaveProperty('renewWithCard');
    el.remove();

    const again = withStripe();
    const m = await mountIndex();
    fireEvent.click((await m.ui().findAllByTestId('gateway-option')).find((o) => o.dataset.module === 'stripe')!.querySelector('input')!);
    fireEvent.click(await m.ui().findByTestId('renew-with-card'));
    await waitFor(() => expect(m.ui().getByTestId<HTMLInputElement>('renew-with-card').checked).toBe(true));
    await pay(m.ui);
    await waitFor(() => expect(again.callsTo('order.create')).toHaveLength(1));
    expect(again.callsTo('order.create')[0]!.body).toMatchObject({ gateway: 'stripe', renewWithCard: true });
  });
});
