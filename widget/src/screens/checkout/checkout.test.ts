import { fireEvent, waitFor } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../core/browser';
import { apiError, installApi, json, priceChanged } from '../../test/api/vitest';
import { body } from '../../test/api/fixtures';
import { mountIndex } from '../../test/mount';

const selected = (ui: Awaited<ReturnType<typeof mountIndex>>['ui']) =>
  ui()
    .getAllByTestId('plan-card')
    .find((c) => c.getAttribute('aria-checked') === 'true');

describe('plan grid', () => {
  it('lists the first three plans with price, cycle, badges and guarantee', async () => {
    installApi();
    const { ui } = await mountIndex();
    const cards = ui().getAllByTestId('plan-card');
    expect(cards.map((c) => c.dataset.pid)).toEqual(['1', '2', '3']);
    const standard = cards[1]!;
    expect(standard.textContent).toContain('Standard');
    expect(standard.textContent).toContain('€12.99');
    expect(standard.textContent).toContain('per month');
    // The seller's free-text badge is gone: a saving names what it is compared with (disclosure.test.ts).
    expect(standard.textContent).not.toContain('Save 35%');
    expect(standard.textContent).toContain('30-day money-back guarantee');
    const premium = cards[2]!;
    expect(premium.textContent).toContain('Premium');
    expect(premium.textContent).toContain('Best seller');
    expect(cards[0]!.textContent).toContain('Free');
    expect(cards[0]!.textContent).toContain('No credit card required');
  });

  it('pre-selects the first paid plan and selects by click and arrow keys', async () => {
    installApi();
    const { ui, of } = await mountIndex();
    await waitFor(() => expect(selected(ui)?.dataset.pid).toBe('2'));
    fireEvent.click(ui().getAllByTestId('plan-card')[2]!);
    await waitFor(() => expect(selected(ui)?.dataset.pid).toBe('3'));
    fireEvent.keyDown(selected(ui)!, { key: 'ArrowLeft' });
    await waitFor(() => expect(selected(ui)?.dataset.pid).toBe('2'));
    expect(of('plan-selected')).toEqual([
      { pid: 3, billingCycle: 'monthly' },
      { pid: 2, billingCycle: 'monthly' },
    ]);
  });

  it('changes the billing cycle and shows its price on the cards', async () => {
    installApi();
    const { ui, of } = await mountIndex();
    const cycle = await ui().findByTestId('billing-cycle');
    fireEvent.change(cycle, { target: { value: 'annually' } });
    await waitFor(() => expect(ui().getAllByTestId('plan-card')[1]!.textContent).toContain('€99.99'));
    expect(ui().getAllByTestId('plan-card')[1]!.textContent).toContain('per year');
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('€99.99'));
    expect(of('plan-selected')).toContainEqual({ pid: 2, billingCycle: 'annually' });
  });

  it('marks the catalogue not found and says so when there are no plans', async () => {
    const api = installApi();
    api.on('catalog.listProducts', () => ({ products: [] }));
    const { mount } = await import('../../test/mount');
    const { ui } = mount();
    await waitFor(() => expect(ui().getByText('No plans are available right now. Please check back soon.')).toBeTruthy());
    await waitFor(() => expect(decodeURIComponent(document.cookie)).toContain('"notFound":true'));
  });
});

describe('options and quote', () => {
  it('prices every change with POST /quote and shows the lines and total', async () => {
    const api = installApi();
    const { ui } = await mountIndex();
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('€12.99'));
    fireEvent.click(ui().getByTestId('extra-connections-toggle'));
    const count = await ui().findByTestId('extra-connections-count');
    // Switching the option on starts at 2 connections: 1 included + 1 extra.
    expect((count as HTMLInputElement).value).toBe('2');
    fireEvent.change(count, { target: { value: '3' } });
    fireEvent.click(ui().getByTestId('proxy-protection-toggle'));
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('€20.99'));
    const last = api.callsTo('pricing.quote').at(-1)!;
    expect(last.body).toEqual({ pid: 2, billingCycle: 'monthly', currency: 'EUR', extraConnections: 2, proxyProtection: true });
    const summary = ui().getByRole('complementary');
    expect(summary.textContent).toContain('Standard · Monthly');
    expect(summary.textContent).toContain('2 extra connections');
    expect(summary.textContent).toContain('€6.00');
    expect(summary.textContent).toContain('Proxy protection');
  });

  it('sends 0 extra connections when the count is 1 or the option is off', async () => {
    const api = installApi();
    const { ui } = await mountIndex();
    fireEvent.click(await ui().findByTestId('extra-connections-toggle'));
    fireEvent.change(await ui().findByTestId('extra-connections-count'), { target: { value: '1' } });
    await waitFor(() => expect(api.callsTo('pricing.quote').at(-1)!.body?.extraConnections).toBe(0));
    fireEvent.change(ui().getByTestId('extra-connections-count'), { target: { value: '9' } });
    // Clamped to 1 + maxQty (4) = 5 connections.
    await waitFor(() => expect(api.callsTo('pricing.quote').at(-1)!.body?.extraConnections).toBe(4));
    fireEvent.click(ui().getByTestId('extra-connections-toggle'));
    await waitFor(() => expect(api.callsTo('pricing.quote').at(-1)!.body?.extraConnections).toBe(0));
  });

  it('shows the conversion to the default currency', async () => {
    installApi();
    const { ui } = await mountIndex({ currency: 'USD' });
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('$14.03'));
    expect(ui().getByText(/≈ €12\.99 · 1 EUR = 1\.08 USD/)).toBeTruthy();
  });

  it('formats prices for the locale', async () => {
    installApi();
    const { ui } = await mountIndex({ locale: 'de-de' });
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('12,99\u00a0€'));
    expect(ui().getByText('Gesamt')).toBeTruthy();
  });

  it('lists the gateways and selects the default one', async () => {
    installApi();
    const { ui } = await mountIndex();
    const options = await ui().findAllByTestId('gateway-option');
    expect(options.map((o) => o.dataset.module)).toEqual(['sandbox', 'stripe', 'coinbase', 'cryptomus']);
    expect((options[0]!.querySelector('input') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(options[2]!.querySelector('input')!);
    await waitFor(() => expect((options[2]!.querySelector('input') as HTMLInputElement).checked).toBe(true));
    expect((options[0]!.querySelector('input') as HTMLInputElement).checked).toBe(false);
  });
});

describe('email', () => {
  it('shows the exact message above the field only when an email is present and invalid', async () => {
    installApi();
    const { ui } = await mountIndex();
    const input = ui().getByTestId('email-input');
    expect(ui().queryByTestId('email-error')).toBeNull();
    fireEvent.change(input, { target: { value: 'not-an-email' } });
    const error = await ui().findByTestId('email-error');
    expect(error.textContent).toBe('Please enter a Valid Email.');
    expect(error.getAttribute('role')).toBe('alert');
    // Red text above the input.
    expect(error.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(input, { target: { value: 'a@b' } });
    expect((await ui().findByTestId('email-error')).textContent).toBe('Please enter a Valid Email.');
    fireEvent.change(input, { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().queryByTestId('email-error')).toBeNull());
    fireEvent.change(input, { target: { value: '' } });
    await waitFor(() => expect(ui().queryByTestId('email-error')).toBeNull());
  });

  it('asks for an email when paying without one and does not create an order', async () => {
    const api = installApi();
    const { ui } = await mountIndex();
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    expect((await ui().findByTestId('email-error')).textContent).toBe('Please enter your email address.');
    expect(api.callsTo('order.create')).toHaveLength(0);
  });
});

describe('promo code', () => {
  it('applies a code: uppercase, applied state and discount line', async () => {
    const api = installApi();
    const { ui } = await mountIndex();
    const input = ui().getByTestId<HTMLInputElement>('promo-input');
    fireEvent.change(input, { target: { value: 'welcome10' } });
    expect(input.value).toBe('WELCOME10');
    fireEvent.click(ui().getByTestId('promo-apply'));
    const msg = await ui().findByTestId('promo-message');
    expect(msg.textContent).toBe('Code WELCOME10 applied: 10% off.');
    expect(input.readOnly).toBe(true);
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('€11.69'));
    expect(ui().getByText('Discount (WELCOME10)')).toBeTruthy();
    expect(api.callsTo('GET /promotions/WELCOME10')[0]!.query.get('pid')).toBe('2');
    expect(api.callsTo('pricing.quote').at(-1)!.body?.promoCode).toBe('WELCOME10');
  });

  it('shows the exact message when the code does not apply to the product', async () => {
    installApi();
    const { ui } = await mountIndex({ plan: '2' });
    fireEvent.change(ui().getByTestId('promo-input'), { target: { value: 'SAVE5' } });
    fireEvent.click(ui().getByTestId('promo-apply'));
    const msg = await ui().findByTestId('promo-message');
    await waitFor(() => expect(msg.textContent).toBe('This Coupon is not available for this product.'));
    expect(msg.getAttribute('role')).toBe('alert');
    expect(ui().getByTestId<HTMLInputElement>('promo-input').readOnly).toBe(false);
  });

  it("shows the server's message for other failures", async () => {
    installApi();
    const { ui } = await mountIndex();
    fireEvent.change(ui().getByTestId('promo-input'), { target: { value: 'NOPE' } });
    fireEvent.click(ui().getByTestId('promo-apply'));
    expect((await ui().findByTestId('promo-message')).textContent).toBe('This promo code does not exist or has expired.');
  });

  it('applies the promocode attribute and drops a code that stops applying when the plan changes', async () => {
    installApi();
    const { ui } = await mountIndex({ plan: '3', promocode: 'save5' });
    await waitFor(() => expect(ui().getByTestId('promo-message').textContent).toBe('Code SAVE5 applied: €5.00 off.'));
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('€10.99'));
    fireEvent.click(ui().getAllByTestId('plan-card')[1]!);
    await waitFor(() => expect(ui().getByTestId('promo-message').textContent).toBe('This Coupon is not available for this product.'));
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('€12.99'));
  });
});

describe('paying', () => {
  it('creates a session and the order, then leaves for the payment page', async () => {
    const api = installApi();
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { ui, of } = await mountIndex();
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    fireEvent.click(ui().getByTestId('promo-input'));
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    expect(ui().getByTestId('pay-button').textContent).toContain('Pay €12.99');
    fireEvent.click(ui().getByTestId('pay-button'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/checkout/api/payments/sandbox/inv_storybook01'));
    expect(await ui().findByText('Taking you to the secure payment page…')).toBeTruthy();

    expect(api.callsTo('session.create')[0]!.body).toEqual({ email: 'buyer@example.com' });
    const order = api.callsTo('order.create')[0]!;
    expect(order.headers.get('authorization')).toBe(`Bearer ${body<{ token: string }>('session.create', '201').token}`);
    expect(order.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(order.body).toMatchObject({
      pid: 2,
      billingCycle: 'monthly',
      currency: 'EUR',
      extraConnections: 0,
      proxyProtection: false,
      gateway: 'sandbox',
      expectedTotal: { amount: 1299, currency: 'EUR' },
      emailSubscription: false,
    });
    expect(String(order.body?.returnUrl)).toBe('http://localhost:3000/?sc_order={orderId}');
    expect(of('session-changed')).toEqual([{ signedIn: true, email: 'buyer@example.com' }]);
    expect(of('order-created')).toEqual([
      { orderId: 'ord_storybook01', invoiceId: 'inv_storybook01', status: 'pending', total: { amount: 1299, currency: 'EUR' } },
    ]);
    expect(of('payment-started')).toEqual([
      { orderId: 'ord_storybook01', gateway: 'sandbox', paymentUrl: 'http://localhost:3000/checkout/api/payments/sandbox/inv_storybook01' },
    ]);
    const cookie = JSON.parse(decodeURIComponent(document.cookie.match(/checkout=([^;]+)/)![1]!));
    expect(cookie.order).toEqual({
      orderid: 'ord_storybook01',
      invoiceid: 'inv_storybook01',
      serviceid: ['svc_storybook01'],
      fraud: false,
    });
    expect(cookie.payment.url).toContain('/payments/sandbox/inv_storybook01');
  });

  it('shows the waiting view when the page comes back from the back/forward cache after the redirect', async () => {
    const api = installApi();
    api.on('order.get', ['200.pending']);
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { ui } = await mountIndex();
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    await ui().findByText('Taking you to the secure payment page…');
    const e = new Event('pageshow') as Event & { persisted: boolean };
    Object.defineProperty(e, 'persisted', { value: true });
    window.dispatchEvent(e);
    const status = await ui().findByTestId('waiting-status');
    await waitFor(() => expect(status.textContent).toBe('Waiting for your payment to be confirmed…'));
    // (the status says what it waits for before the order's answer: the link comes with the answer)
    expect((await ui().findByText('Complete your payment')).getAttribute('href')).toBe(
      'http://localhost:3000/checkout/api/payments/sandbox/inv_storybook01',
    );
  });

  it('asks to confirm a changed price and orders at the fresh total', async () => {
    const api = installApi();
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    let first = true;
    const fresh = {
      ...body<{ quote: object }>('order.create', '201').quote,
      lines: [{ key: 'plan', label: 'Standard', amount: { amount: 1499, currency: 'EUR' } }],
      subtotal: { amount: 1499, currency: 'EUR' },
      total: { amount: 1499, currency: 'EUR' },
    };
    api.on('order.create', (c) => {
      if (first) {
        first = false;
        return priceChanged('The price has changed.', fresh);
      }
      expect(c.body?.expectedTotal).toEqual({ amount: 1499, currency: 'EUR' });
      return json(201, {
        ...body<object>('order.create', '201'),
        total: fresh.total,
        paymentUrl: 'https://pay.example/i-9',
        paymentDeadline: '',
        quote: fresh,
      });
    });
    const { ui } = await mountIndex();
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    const prompt = await ui().findByText('The price has changed to €14.99. Please confirm the new price to continue.');
    expect(prompt).toBeTruthy();
    expect(ui().getByTestId('price-total').textContent).toBe('€14.99');
    const keys = api.callsTo('order.create').map((c) => c.headers.get('idempotency-key'));
    fireEvent.click(ui().getByTestId('confirm-price'));
    await waitFor(() => expect(browser.assign).toHaveBeenCalledWith('https://pay.example/i-9'));
    const all = api.callsTo('order.create').map((c) => c.headers.get('idempotency-key'));
    expect(all[1]).not.toBe(keys[0]);
  });

  it('shows an order failure in the summary and keeps the form', async () => {
    const api = installApi();
    api.on('order.create', () => apiError(503, 'unavailable', 'Try later'));
    const { ui, of } = await mountIndex();
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    expect(await ui().findByText('The service is busy right now. Please try again in a moment.')).toBeTruthy();
    expect(ui().getByTestId<HTMLInputElement>('email-input').value).toBe('buyer@example.com');
    expect(of('error')).toContainEqual({ name: 'unavailable', message: 'Try later' });
  });
});

describe('free trial', () => {
  // The API answers 409 trial_used to a client (or an address) that has had its free trials.
  it.each([
    ['en', 'You have already used your free trial. Please choose a plan to continue.'],
    ['de-de', 'Sie haben Ihren Gratis-Test bereits genutzt. Bitte wählen Sie ein Abo, um fortzufahren.'],
    ['pt-pt', 'Já utilizou o seu teste gratuito. Escolha um plano para continuar.'],
  ])('shows trial_used in the %s summary and keeps the form', async (locale, text) => {
    const api = installApi();
    api.on('order.create', () => apiError(409, 'trial_used', 'The free trial has already been used. Please choose a plan.'));
    const { ui, of } = await mountIndex({ plan: '1', locale });
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'again@example.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    expect(await ui().findByText(text)).toBeTruthy();
    expect(ui().getByTestId<HTMLInputElement>('email-input').value).toBe('again@example.com');
    expect(of('error')).toContainEqual({ name: 'trial_used', message: 'The free trial has already been used. Please choose a plan.' });
  });

  // And 409 trial_unavailable to a throwaway (disposable) address, in every locale's words.
  it.each([
    ['en', 'Free trials are not available for this email address. Please use your own email address or choose a plan.'],
    ['en-gb', 'Free trials are not available for this email address. Please use your own email address or choose a plan.'],
    ['en-us', 'Free trials are not available for this email address. Please use your own email address or choose a plan.'],
    [
      'de-de',
      'Für diese E-Mail-Adresse gibt es keinen Gratis-Test. Bitte verwenden Sie Ihre eigene E-Mail-Adresse oder wählen Sie ein Abo.',
    ],
    ['es-es', 'La prueba gratuita no está disponible para esta dirección de correo. Usa tu propio correo o elige un plan.'],
    ['nl-nl', 'Voor dit e-mailadres is geen gratis proefperiode beschikbaar. Gebruik je eigen e-mailadres of kies een abonnement.'],
    ['pt-pt', 'O teste gratuito não está disponível para este endereço de email. Utilize o seu próprio email ou escolha um plano.'],
  ])('shows trial_unavailable in the %s summary and keeps the form', async (locale, text) => {
    const api = installApi();
    const message = 'Free trials are not available for this email address. Please use your own email address or choose a plan.';
    api.on('order.create', () => apiError(409, 'trial_unavailable', message));
    const { ui, of } = await mountIndex({ plan: '1', locale });
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'x@mailinator.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    expect(await ui().findByText(text)).toBeTruthy();
    expect(ui().getByTestId<HTMLInputElement>('email-input').value).toBe('x@mailinator.com');
    expect(of('error')).toContainEqual({ name: 'trial_unavailable', message });
  });

  it('has no payment step and goes from the order to waiting and success', async () => {
    const api = installApi();
    api.on('order.get', ['200.trial-provisioning', '200.trial-active']);
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { ui, of } = await mountIndex({ plan: '1' });
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('€0.00'));
    expect(ui().queryAllByTestId('gateway-option')).toHaveLength(0);
    expect(ui().getAllByText('No credit card required').length).toBeGreaterThan(0);
    expect(ui().getByTestId('pay-button').textContent).toBe('Start free trial');
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'trial@example.com' } });
    fireEvent.click(ui().getByTestId('pay-button'));
    const creds = await ui().findByTestId('success-credentials');
    expect(ui().getByTestId('credential-username').textContent).toBe('sc55012384');
    expect(ui().getByTestId('credential-password').textContent).toBe('771203948812');
    expect(creds.textContent).toContain('Active');
    expect(assign).not.toHaveBeenCalled();
    expect(api.callsTo('order.create')[0]!.body?.gateway).toBe('sandbox');
    expect(of('payment-started')).toEqual([]);
    expect(of('order-paid')).toEqual([{ orderId: 'ord_storybooktr' }]);
    expect(of('service-ready')).toEqual([{ orderId: 'ord_storybooktr', serviceIds: ['svc_storybooktr'] }]);
  });
});
