import { fireEvent, waitFor, within } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../core/browser';
import { emptyPersisted, loadPersisted, savePersisted } from '../../core/persisted';
import { tokenScope } from '../../core/signin';
import { texts as en } from '../../i18n/en/aftersale';
import { apiError, installApi } from '../../test/api/vitest';
import { body } from '../../test/api/fixtures';
import { defaultReply, LINK_TOKEN, PASSWORD, THROTTLED_EMAIL, type MockRequest } from '../../test/api/mock';
import { mount, mountIndex } from '../../test/mount';
import { normalizeMac } from './mac';

/** The session tokens of the fixtures: by email only, and proven (a password or a link). */
const EMAIL_TOKEN = body<{ token: string }>('session.create', '201').token;
const PROVEN_TOKEN = body<{ token: string }>('session.create', '201.proven').token;

function signIn(email: string, scope: 'email' | 'proven') {
  const p = emptyPersisted();
  savePersisted({
    ...p,
    auth: { loggedIn: true, user: { userid: 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab' } },
    user: { email },
    token: scope === 'proven' ? PROVEN_TOKEN : EMAIL_TOKEN,
  });
}

const HISTORY = { routing: 'history', base: '/checkout/' };

/** Mounts the element and waits for its shadow root content. */
async function open(attrs: Record<string, string> = {}) {
  const m = mount(attrs);
  await waitFor(() => m.ui());
  return m;
}

describe('sign-in for management', () => {
  it('goes from "Manage my services" to the sign-in view and always says the same after sending a link', async () => {
    const api = installApi();
    history.replaceState(null, '', '/checkout/');
    const { ui } = await mountIndex(HISTORY);
    const link = ui().getByTestId('manage-services');
    expect(link.getAttribute('href')).toBe('/checkout/?view=services');
    fireEvent.click(link);
    await ui().findByTestId('signin-form');
    expect(location.search).toBe('?view=services');
    fireEvent.input(ui().getByTestId('email-input'), { target: { value: 'not-an-email' } });
    fireEvent.click(ui().getByTestId('signin-send'));
    expect((await ui().findByTestId('email-error')).textContent).toBe('Please enter a Valid Email.');
    expect(api.callsTo('session.requestLink')).toHaveLength(0);

    fireEvent.input(ui().getByTestId('email-input'), { target: { value: 'nobody@example.com' } });
    fireEvent.click(ui().getByTestId('signin-send'));
    expect((await ui().findByTestId('signin-sent')).textContent).toBe(en.linkSent);
    expect(api.callsTo('session.requestLink')[0]!.body).toEqual({ email: 'nobody@example.com', returnUrl: '/checkout/?view=services' });
  });

  it('trades a ?signin= link for a proven session, drops it from the URL and shows the services', async () => {
    const api = installApi();
    history.replaceState(null, '', `/checkout/de-de/?signin=${LINK_TOKEN}`);
    const { ui, of } = await open(HISTORY);
    await ui().findByTestId('services-view');
    expect(api.callsTo(`POST /session/link/${LINK_TOKEN}`)).toHaveLength(1);
    expect(location.pathname + location.search).toBe('/checkout/de-de/?view=services');
    const p = loadPersisted();
    expect(p.user.email).toBe('buyer@example.com');
    expect(tokenScope(p.token)).toBe('proven');
    expect(api.callsTo('services.list')[0]!.headers.get('authorization')).toBe(`Bearer ${p.token}`);
    expect(of('session-changed')).toEqual([{ signedIn: true, email: 'buyer@example.com' }]);
    // The German table is used on the German route.
    expect(ui().getByText('Meine Dienste')).toBeTruthy();
  });

  it('says so when the link is used or expired, and offers the form again', async () => {
    installApi();
    history.replaceState(null, '', '/?signin=used-link');
    const { ui } = await open();
    expect((await ui().findByRole('alert')).textContent).toContain(en.errors.invalid_link);
    expect(ui().getByTestId('signin-form')).toBeTruthy();
    expect(location.search).toBe('');
  });

  it('signs in with a password; wrong password and throttling have their messages', async () => {
    const api = installApi();
    history.replaceState(null, '', '/checkout/?view=services');
    const { ui } = await open(HISTORY);
    await ui().findByTestId('signin-form');
    fireEvent.click(ui().getByTestId('signin-mode-password'));
    fireEvent.input(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    fireEvent.click(ui().getByTestId('signin-submit'));
    expect((await ui().findByTestId('signin-password-error')).textContent).toBe(en.passwordRequired);

    fireEvent.input(ui().getByTestId('signin-password'), { target: { value: 'wrong' } });
    fireEvent.click(ui().getByTestId('signin-submit'));
    await waitFor(() => expect(ui().getByTestId('signin-error').textContent).toBe('Wrong email or password.'));

    fireEvent.input(ui().getByTestId('email-input'), { target: { value: THROTTLED_EMAIL } });
    fireEvent.click(ui().getByTestId('signin-submit'));
    await waitFor(() => expect(ui().getByTestId('signin-error').textContent).toBe(en.errors.too_many_attempts));

    fireEvent.input(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    fireEvent.input(ui().getByTestId('signin-password'), { target: { value: PASSWORD } });
    fireEvent.click(ui().getByTestId('signin-submit'));
    await ui().findByTestId('services-view');
    expect(api.callsTo('session.create').at(-1)!.body).toEqual({ email: 'buyer@example.com', password: PASSWORD });
  });

  it('a buyer’s session sees the lines it bought, and must sign in to manage them', async () => {
    const api = installApi();
    signIn('buyer@example.com', 'email');
    history.replaceState(null, '', '/checkout/?view=services');
    const { ui } = await open(HISTORY);
    await ui().findByTestId('services-view');
    expect(api.callsTo('services.list')[0]!.headers.get('authorization')).toBe(`Bearer ${EMAIL_TOKEN}`);
    const cards = ui().getAllByTestId('service-card');
    expect(cards.length).toBeGreaterThan(0);
    expect(within(cards[0]!).getByTestId('credential-username')).toBeTruthy();
    // Reading only: no panel action, no MAC form, no renewal, no upsell.
    for (const id of ['service-restart', 'service-terminate', 'mac-input', 'upsell-link']) expect(ui().queryByTestId(id)).toBeNull();
    expect(ui().getByTestId('services-purchase-only').textContent).toContain(en.purchaseOnly);
    fireEvent.click(ui().getByTestId('services-signin'));
    await ui().findByTestId('signin-form');
    expect(ui().getByTestId<HTMLInputElement>('email-input').value).toBe('buyer@example.com');
  });

  it('a buyer’s session that bought nothing is asked to sign in', async () => {
    const api = installApi();
    api.on('services.list', () => ({ services: [] }));
    signIn('buyer@example.com', 'email');
    history.replaceState(null, '', '/checkout/?view=services');
    const { ui } = await open(HISTORY);
    await ui().findByTestId('signin-form');
  });

  it('the email landing parameter leaves a session of the same email alone', async () => {
    const api = installApi();
    signIn('buyer@example.com', 'proven');
    history.replaceState(null, '', '/checkout/?email=buyer%40example.com');
    await mountIndex(HISTORY);
    expect(api.callsTo('session.create')).toHaveLength(0);
    expect(tokenScope(loadPersisted().token)).toBe('proven');
  });
});

describe('services', () => {
  async function services() {
    const api = installApi();
    signIn('buyer@example.com', 'proven');
    history.replaceState(null, '', '/checkout/?view=services');
    const m = await open(HISTORY);
    const cards = await m.ui().findAllByTestId('service-card');
    return { api, ...m, cards };
  }

  it('lists services with status badges and credentials with copy buttons', async () => {
    const { cards } = await services();
    expect(cards.map((c) => c.dataset.serviceId)).toEqual(['svc_storybook01', 'svc_storybook02', 'svc_storybook03']);
    const [first, , second] = cards as [HTMLElement, HTMLElement, HTMLElement];
    expect(first.querySelector('[data-testid="service-status"]')!.textContent).toBe('Active');
    expect(second.querySelector<HTMLElement>('[data-testid="service-status"]')!.dataset.status).toBe('Cancelled');
    expect(second.querySelector('[data-testid="service-status"]')!.textContent).toMatch(/^Cancell?ed$/);
    expect(first.querySelector('[data-testid="credential-username"]')!.textContent).toBe('sc91692420');
    expect(first.querySelectorAll('[data-testid="copy-button"]')).toHaveLength(3);
    // A cancelled service offers no actions.
    expect(second.querySelector('[data-testid="service-restart"]')).toBeNull();
  });

  it('links the upsell by a real address in memory routing too, and opens it in place on a click', async () => {
    installApi();
    signIn('buyer@example.com', 'proven');
    history.replaceState(null, '', '/shop/?sc_view=services');
    const { ui } = await open();
    const link = await ui().findByTestId<HTMLAnchorElement>('upsell-link');
    expect(link.getAttribute('href')).toBe(`${location.origin}/shop/?sc_view=upsell`);
    fireEvent.click(link);
    await ui().findByTestId('upsell-slider');
    expect(location.pathname + location.search).toBe('/shop/?sc_view=services');
  });

  it('restarts, recreates and terminates only after confirming', async () => {
    const { api, cards } = await services();
    const card = cards[0]!;
    const q = (id: string) => card.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
    fireEvent.click(q('service-restart'));
    await waitFor(() => expect(q('service-message').textContent).toBe(en.restarted));
    expect(api.callsTo('POST /services/svc_storybook01/restart')).toHaveLength(1);
    fireEvent.click(q('service-recreate'));
    await waitFor(() => expect(q('service-message').textContent).toBe(en.recreated));

    fireEvent.click(q('service-terminate'));
    expect((await within(card).findByTestId('terminate-confirm')).textContent).toContain('Terminate Standard for good?');
    fireEvent.click(q('terminate-no'));
    fireEvent.click(await within(card).findByTestId('service-terminate'));
    expect(api.callsTo('POST /services/svc_storybook01/terminate')).toHaveLength(0);
    fireEvent.click(await within(card).findByTestId('terminate-yes'));
    await waitFor(() => expect(q('service-status').textContent).toBe('Terminated'));
    expect(api.callsTo('POST /services/svc_storybook01/terminate')[0]!.body).toEqual({ confirm: true });
    expect(q('service-message').textContent).toBe(en.terminated);
  });

  it('checks the MAC address like the server, and shows the server refusal too', async () => {
    const { api, cards } = await services();
    const card = cards[0]!;
    const q = (id: string) => card.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
    fireEvent.input(q('mac-input'), { target: { value: '00:1A:79:12:34' } });
    fireEvent.click(q('mac-save'));
    expect((await within(card).findByTestId('mac-error')).textContent).toBe(en.errors.invalid_mac);
    expect(api.callsTo('PUT /services/svc_storybook01/mac')).toHaveLength(0);

    fireEvent.input(q('mac-input'), { target: { value: '00-1a-79-65-43-2f' } });
    fireEvent.click(q('mac-save'));
    await waitFor(() => expect(q('service-message').textContent).toBe('The MAC address is now 00:1A:79:65:43:2F.'));
    expect(api.callsTo('PUT /services/svc_storybook01/mac')[0]!.body).toEqual({ macAddress: '00-1a-79-65-43-2f' });
    expect((q('mac-input') as HTMLInputElement).value).toBe('00:1A:79:65:43:2F');

    api.on('services.setMac', '400');
    fireEvent.input(q('mac-input'), { target: { value: 'AA:BB:CC:DD:EE:FF' } });
    fireEvent.click(q('mac-save'));
    await waitFor(() => expect(q('mac-error').textContent).toBe(en.errors.invalid_mac));
  });

  it('downloads the playlist with the bearer token', async () => {
    const createObjectURL = vi.fn(() => 'blob:x');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const { api, cards } = await services();
    fireEvent.click(cards[0]!.querySelector<HTMLElement>('[data-testid="m3u-download"]')!);
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const call = api.callsTo('GET /services/svc_storybook01/playlist.m3u')[0]!;
    expect(call.headers.get('authorization')).toBe(`Bearer ${PROVEN_TOKEN}`);
  });

  it('sends an expired session back to the sign-in form', async () => {
    const api = installApi();
    api.on('services.list', '401');
    signIn('buyer@example.com', 'proven');
    history.replaceState(null, '', '/checkout/?view=services');
    const { ui } = await open(HISTORY);
    await ui().findByTestId('signin-form');
    expect(ui().getByText(en.sessionExpired)).toBeTruthy();
  });
});

describe('upsell', () => {
  it('shows the net and the VAT of a taxed shop above the total', async () => {
    const api = installApi();
    api.on('upsell.quote', (req: MockRequest) => ({
      ...(defaultReply(req).body as object),
      total: { amount: 300, currency: 'EUR' },
      net: { amount: 252, currency: 'EUR' },
      tax: { country: 'DE', rate: '19', amount: 48, currency: 'EUR', pricesIncludeTax: true, ipCountry: 'DE' },
    }));
    signIn('buyer@example.com', 'proven');
    history.replaceState(null, '', '/checkout/upsell');
    const { ui } = await open(HISTORY);
    await waitFor(() => expect(ui().getByTestId('upsell-tax').textContent).toBe('VAT 19% (DE)€0.48'));
    expect(ui().getByTestId('upsell-net').textContent).toBe('Net€2.52');
    expect(ui().getByTestId('upsell-total').textContent).toBe('€3.00');
  });

  it('prices the slider choice on the server and pays through its own invoice', async () => {
    const api = installApi();
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    signIn('buyer@example.com', 'proven');
    history.replaceState(null, '', '/checkout/upsell');
    const { ui, of } = await open(HISTORY);
    const slider = await ui().findByTestId<HTMLInputElement>('upsell-slider');
    expect(slider.type).toBe('range');
    expect(slider.value).toBe('1');
    expect(slider.max).toBe('4');
    await waitFor(() => expect(ui().getByTestId('upsell-total').textContent).toBe('€3.00'));
    expect(api.callsTo('upsell.quote')[0]!.body).toEqual({ serviceId: 'svc_storybook01', extraQuantity: 1, currency: 'EUR' });

    fireEvent.change(slider, { target: { value: '2' } });
    await waitFor(() => expect(ui().getByTestId('upsell-total').textContent).toBe('€6.00'));
    expect(ui().getByTestId('upsell-after').textContent).toBe('3 connections after payment');
    fireEvent.click(ui().getByTestId('pay-button'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/checkout/api/payments/sandbox/inv_storybookup'));
    expect(api.callsTo('upsell.order')[0]!.body).toEqual({
      serviceId: 'svc_storybook01',
      extraQuantity: 2,
      currency: 'EUR',
      gateway: 'sandbox',
      returnUrl: `${location.origin}/checkout/waiting?order={orderId}&upsell=svc_storybook01`,
    });
    expect(of('order-created')).toEqual([
      { orderId: 'ord_storybookup', invoiceId: 'inv_storybookup', status: 'pending', total: { amount: 600, currency: 'EUR' } },
    ]);
    expect(loadPersisted().order.orderid).toBe('ord_storybookup');
  });

  it('asks an email-only session to sign in first', async () => {
    installApi();
    signIn('buyer@example.com', 'email');
    history.replaceState(null, '', '/checkout/upsell');
    const { ui } = await open(HISTORY);
    await ui().findByTestId('signin-form');
    expect(ui().getByText(en.upsellSignInLead)).toBeTruthy();
  });

  it('waits for the paid upsell and shows the new max connections', async () => {
    const api = installApi();
    api.on('order.get', ['200.upsell-paid', '200.upsell-active']);
    api.on('services.get', () => ({ ...body<object>('services.get', '200'), maxConnections: 3 }));
    signIn('buyer@example.com', 'proven');
    history.replaceState(null, '', '/checkout/waiting?order=ord_storybookup&upsell=svc_storybook01');
    const { ui } = await open(HISTORY);
    expect((await ui().findByTestId('upsell-connections')).textContent).toBe('3');
    expect(location.pathname + location.search).toBe('/checkout/success?order=ord_storybookup&upsell=svc_storybook01');
  });
});

describe('resellers', () => {
  async function resellers(attrs = HISTORY) {
    const api = installApi();
    history.replaceState(null, '', '/checkout/resellers');
    const m = await open(attrs);
    await m.ui().findAllByTestId('plan-card');
    return { api, ...m };
  }

  it('pre-selects the second plan and shows "Not the same password" without calling the server', async () => {
    const { api, ui } = await resellers();
    const cards = ui().getAllByTestId('plan-card');
    expect(cards.find((c) => c.getAttribute('aria-checked') === 'true')!.dataset.pid).toBe('11');
    fireEvent.input(ui().getByTestId('email-input'), { target: { value: 'res@example.com' } });
    fireEvent.input(ui().getByTestId('reseller-password'), { target: { value: 'secret-123' } });
    fireEvent.input(ui().getByTestId('reseller-password-confirm'), { target: { value: 'secret-124' } });
    expect(ui().getByTestId('password-mismatch').textContent).toBe('Not the same password');
    fireEvent.click(ui().getByTestId('pay-button'));
    expect(api.callsTo('resellers.order')).toHaveLength(0);
    fireEvent.input(ui().getByTestId('reseller-password-confirm'), { target: { value: 'secret-123' } });
    expect(ui().queryByTestId('password-mismatch')).toBeNull();
  });

  it('shows the server password_mismatch answer the same way', async () => {
    const { api, ui } = await resellers();
    api.on('resellers.order', '422');
    fireEvent.input(ui().getByTestId('email-input'), { target: { value: 'res@example.com' } });
    fireEvent.input(ui().getByTestId('reseller-password'), { target: { value: 'secret-123' } });
    fireEvent.input(ui().getByTestId('reseller-password-confirm'), { target: { value: 'secret-123' } });
    fireEvent.click(ui().getByTestId('pay-button'));
    expect((await ui().findByTestId('password-mismatch')).textContent).toBe('Not the same password');
  });

  it('orders the chosen plan as an existing reseller, keeps the email-only session and pays', async () => {
    const { api, ui } = await resellers();
    api.on('resellers.order', '201.pending');
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    fireEvent.click(ui().getAllByTestId('plan-card')[0]!);
    fireEvent.click(ui().getByTestId('existing-reseller-yes').querySelector('input')!);
    fireEvent.input(ui().getByTestId('email-input'), { target: { value: 'res@example.com' } });
    fireEvent.input(ui().getByTestId('reseller-password'), { target: { value: 'secret-123' } });
    fireEvent.input(ui().getByTestId('reseller-password-confirm'), { target: { value: 'secret-123' } });
    fireEvent.click(ui().getByTestId('pay-button'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/checkout/api/payments/sandbox/inv_storybookre'));
    expect(api.callsTo('session.create')[0]!.body).toEqual({ email: 'res@example.com' });
    expect(api.callsTo('resellers.order')[0]!.body).toEqual({
      pid: 10,
      gateway: 'sandbox',
      existingReseller: true,
      password: 'secret-123',
      confirmPassword: 'secret-123',
      currency: 'EUR',
      returnUrl: `${location.origin}/checkout/resellers/waiting?order={orderId}`,
    });
    // The password is the reseller panel account's: it proves nothing, the session stays email-only.
    const p = loadPersisted();
    expect(p.token).toBe(EMAIL_TOKEN);
    expect(tokenScope(p.token)).not.toBe('proven');
    expect(p.order).toMatchObject({ orderid: 'ord_storybookre', serviceid: ['svc_storybookre'] });
  });

  it('409 price_changed (WHMCS mode): shows the new total, and confirming it orders again', async () => {
    const { api, ui } = await resellers();
    api.on('resellers.order', '409.price-changed');
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    fireEvent.input(ui().getByTestId('email-input'), { target: { value: 'res@example.com' } });
    fireEvent.input(ui().getByTestId('reseller-password'), { target: { value: 'secret-123' } });
    fireEvent.input(ui().getByTestId('reseller-password-confirm'), { target: { value: 'secret-123' } });
    expect(ui().getByTestId('price-total').textContent).toBe('€599.00');
    const card = () => ui().getAllByTestId('plan-card')[1]!.querySelector('.sc-plan-price')!.textContent;
    expect(card()).toContain('€599.00');
    fireEvent.click(ui().getByTestId('pay-button'));
    const alert = await ui().findByTestId('reseller-price-changed');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.querySelector('p')!.textContent).toBe('The price has changed to €649.00. Please confirm the new price to continue.');
    expect(ui().getByTestId('price-total').textContent).toBe('€649.00');
    // The card the buyer chose shows the new price too, not the list's old one.
    expect(card()).toContain('€649.00');
    expect(card()).not.toContain('€599.00');
    expect(ui().queryByTestId('reseller-error')).toBeNull();
    expect(assign).not.toHaveBeenCalled();

    api.on('resellers.order', '201.pending');
    fireEvent.click(ui().getByTestId('confirm-price'));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    expect(api.callsTo('resellers.order')).toHaveLength(2);
    expect(ui().queryByTestId('reseller-price-changed')).toBeNull();
  });

  it('says whether the signed-in user already is a reseller', async () => {
    const api = installApi();
    api.on('resellers.me', '200.reseller');
    signIn('res@example.com', 'proven');
    history.replaceState(null, '', '/checkout/resellers');
    const { ui } = await open(HISTORY);
    expect((await ui().findByTestId('reseller-status')).textContent).toBe('You are a reseller. Your balance: 240 credits.');
    expect((ui().getByTestId('existing-reseller-yes').querySelector('input') as HTMLInputElement).checked).toBe(true);
  });

  it('moves from the reseller waiting view to the reseller success page', async () => {
    const api = installApi();
    api.on('order.get', ['200.reseller-paid', '200.reseller-active']);
    signIn('res@example.com', 'proven');
    history.replaceState(null, '', '/checkout/resellers/waiting?order=ord_storybookre');
    const { ui } = await open(HISTORY);
    const done = await ui().findByTestId('reseller-success');
    expect(location.pathname + location.search).toBe('/checkout/resellers/success?serviceid=svc_storybookre');
    expect(done.textContent).toContain('500 credits have been added');
    expect(ui().getByTestId('reseller-account').textContent).toBe('res_buyer');
  });

  it.each([
    ['no serviceid', '/checkout/resellers/success', null],
    ['a reseller product in error', '/checkout/resellers/success?serviceid=s-x', () => apiError(404, 'not_found', 'Service not found.')],
    [
      'a reseller product not Active',
      '/checkout/resellers/success?serviceid=s-x',
      () => ({
        ...body<object>('resellers.getService', '200'),
        serviceId: 's-x',
        name: 'R',
        status: 'Pending',
        credits: 0,
        balance: 0,
        account: '',
      }),
    ],
  ])('guards the success page: %s goes back to /resellers', async (_name, url, answer) => {
    const api = installApi();
    if (answer) api.on('resellers.getService', answer);
    signIn('res@example.com', 'proven');
    history.replaceState(null, '', url);
    const { ui } = await open(HISTORY);
    await ui().findByTestId('resellers-view');
    expect(location.pathname).toBe('/checkout/resellers');
  });
});

describe('affiliates', () => {
  it('records a click when aff_id differs from the cookie, sets the cookie, and credits the order', async () => {
    const api = installApi();
    vi.spyOn(document, 'referrer', 'get').mockReturnValue('https://blog.example/post');
    history.replaceState(null, '', '/?aff_id=42');
    const { el } = await mountIndex();
    await waitFor(() => expect(document.cookie).toContain('aff_id=42'));
    expect(api.callsTo('affiliates.click')[0]!.body).toEqual({ affId: '42', referer: 'https://blog.example/post' });
    el.remove();
    await Promise.resolve();
    await mountIndex();
    expect(api.callsTo('affiliates.click')).toHaveLength(1);
  });

  it('passes the remembered affiliate id on orders', async () => {
    const api = installApi();
    document.cookie = 'aff_id=77; Path=/';
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { ui } = await mountIndex();
    fireEvent.input(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    await waitFor(() => expect(api.callsTo('order.create')).toHaveLength(1));
    expect(api.callsTo('order.create')[0]!.body?.affiliateId).toBe('77');
    expect(api.callsTo('affiliates.click')).toHaveLength(0);
  });
});

describe('cancel a pending order', () => {
  it('asks first, then cancels and clears the order ids', async () => {
    const api = installApi();
    api.on('order.get', ['200.pending']);
    const p = emptyPersisted();
    savePersisted({
      ...p,
      auth: { loggedIn: true, user: { userid: 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab' } },
      user: { email: 'b@example.com' },
      token: 'tok-b@example.com',
      order: { ...p.order, orderid: 'ord_storybook01', invoiceid: 'inv_storybook01' },
    });
    history.replaceState(null, '', '/checkout/waiting?order=ord_storybook01');
    const { ui } = await open(HISTORY);
    fireEvent.click(await ui().findByTestId('cancel-order'));
    expect((await ui().findByTestId('cancel-order-confirm')).textContent).toContain('Cancel this order?');
    fireEvent.click(ui().getByTestId('cancel-order-yes'));
    await waitFor(() => expect(ui().getByTestId('waiting-status').dataset.status).toBe('cancelled'));
    expect(api.callsTo('POST /orders/ord_storybook01/cancel')[0]!.headers.get('authorization')).toBe('Bearer tok-b@example.com');
    expect(loadPersisted().order).toMatchObject({ orderid: '', invoiceid: '', fraud: false });
  });
});

describe('after-sale texts', () => {
  it('keeps the spec message for a password mismatch in English', () => {
    expect(en.errors.password_mismatch).toBe('Not the same password');
  });

  it('normalises MAC addresses like the server', () => {
    expect(normalizeMac(' 00-1a-79-12-34-56 ')).toBe('00:1A:79:12:34:56');
    expect(normalizeMac('00:1A:79:12:34:56')).toBe('00:1A:79:12:34:56');
    expect(normalizeMac('00:1A-79:12:34:56')).toBeNull();
    expect(normalizeMac('00:1A:79:12:34')).toBeNull();
    expect(normalizeMac('GG:1A:79:12:34:56')).toBeNull();
  });
});
