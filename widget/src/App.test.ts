import { fireEvent, waitFor, within } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { browser } from './core/browser';
import { loadPersisted } from './core/persisted';
import { apiError, installApi } from './test/api/vitest';
import { mount, mountIndex } from './test/mount';

describe('landing parameters', () => {
  it('pre-fill the form and sign the visitor in by email', async () => {
    const api = installApi();
    history.replaceState(null, '', '/?email=fan%40example.com&pid=3&extraconnect=3&proxyprotect=true&promocode=welcome10');
    const { ui, of } = await mountIndex();
    await waitFor(() =>
      expect(
        ui()
          .getAllByTestId('plan-card')
          .find((c) => c.getAttribute('aria-checked') === 'true')?.dataset.pid,
      ).toBe('3'),
    );
    expect(ui().getByTestId<HTMLInputElement>('email-input').value).toBe('fan@example.com');
    expect(ui().getByTestId<HTMLInputElement>('extra-connections-toggle').checked).toBe(true);
    expect(ui().getByTestId<HTMLInputElement>('extra-connections-count').value).toBe('3');
    expect(ui().getByTestId<HTMLInputElement>('proxy-protection-toggle').checked).toBe(true);
    await waitFor(() => expect(ui().getByTestId('promo-message').textContent).toBe('Code WELCOME10 applied: 10% off.'));
    await waitFor(() =>
      expect(api.callsTo('pricing.quote').at(-1)!.body).toMatchObject({
        pid: 3,
        extraConnections: 2,
        proxyProtection: true,
        promoCode: 'WELCOME10',
      }),
    );
    await waitFor(() => expect(of('session-changed')).toEqual([{ signedIn: true, email: 'fan@example.com' }]));
    expect(loadPersisted().auth).toEqual({ loggedIn: true, user: { userid: 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab' } });
  });

  it('email + pid + auto_redirect=true orders automatically in GBP for GB and leaves for the payment page', async () => {
    const api = installApi();
    api.on('geo.lookup', () => ({ ip: '81.2.69.160', country: 'GB' }));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    history.replaceState(null, '', '/?email=fan%40example.com&pid=2&auto_redirect=true&extraconnect=2&promocode=WELCOME10');
    const { of } = mount();
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://localhost:3000/checkout/api/payments/sandbox/inv_storybook01'));
    expect(api.callsTo('GET /products/2')[0]!.query.get('currency')).toBe('GBP');
    const order = api.callsTo('order.create')[0]!;
    expect(order.body).toMatchObject({
      pid: 2,
      billingCycle: 'monthly',
      currency: 'GBP',
      extraConnections: 1,
      proxyProtection: false,
      promoCode: 'WELCOME10',
      gateway: 'sandbox',
    });
    expect(String(order.body?.returnUrl)).not.toContain('auto_redirect');
    expect(of('payment-started')).toHaveLength(1);
  });

  it('stops silently and shows the normal checkout when a step fails', async () => {
    const api = installApi();
    api.on('catalog.getProduct', () => apiError(404, 'not_found', 'Product not found'));
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    history.replaceState(null, '', '/?email=fan%40example.com&pid=2&auto_redirect=true');
    const { ui, of } = mount();
    await waitFor(() => expect(ui().getAllByTestId('plan-card')).toHaveLength(3));
    expect(assign).not.toHaveBeenCalled();
    expect(api.callsTo('order.create')).toHaveLength(0);
    expect(ui().queryByRole('alert')).toBeNull();
    expect(of('error')).toEqual([]);
  });
});

describe('history routing', () => {
  it('renders the not-found view for an unknown route, with a link home', async () => {
    installApi();
    history.replaceState(null, '', '/checkout/de-de/nowhere');
    const { ui } = mount({ routing: 'history', base: '/checkout/' });
    await waitFor(() => expect(ui().getByTestId('not-found')).toBeTruthy());
    // The prefix sets the language when nothing else chose one.
    expect(ui().getByTestId('not-found').textContent).toContain('Diese Seite wurde nicht gefunden');
    fireEvent.click(ui().getByText('Zurück zur Startseite'));
    await waitFor(() => expect(location.pathname).toBe('/checkout/de-de/'));
    expect(await ui().findAllByTestId('plan-card')).toHaveLength(3);
  });

  it('shows the English not-found text without a prefix', async () => {
    installApi();
    history.replaceState(null, '', '/checkout/nope');
    const { ui } = mount({ routing: 'history', base: '/checkout/', locale: 'en' });
    await waitFor(() => expect(ui().getByTestId('not-found').textContent).toContain('This page could not be found'));
    expect(ui().getByText('Back to the home page').getAttribute('href')).toBe('/checkout/');
  });

  it('setLocale replaces the prefix and keeps route and query', async () => {
    installApi();
    history.replaceState(null, '', '/checkout/es-es/?promocode=WELCOME10&x=1');
    const { el, ui } = await mountIndex({ routing: 'history', base: '/checkout/' });
    expect(ui().getByText('Elige tu plan')).toBeTruthy();
    el.setLocale('nl-nl');
    expect(location.pathname + location.search).toBe('/checkout/nl-nl/?promocode=WELCOME10&x=1');
    await ui().findByText('Kies je abonnement');
    el.setLocale('en-en');
    expect(location.pathname + location.search).toBe('/checkout/?promocode=WELCOME10&x=1');
    history.pushState(null, '', '/checkout/pt-pt/waiting?order=o-1');
    el.setLocale('de-de');
    expect(location.pathname + location.search).toBe('/checkout/de-de/waiting?order=o-1');
  });

  it('follows the back button (popstate)', async () => {
    const api = installApi();
    api.on('order.get', ['200.pending']);
    history.replaceState(null, '', '/checkout/');
    const { ui } = await mountIndex({ routing: 'history', base: '/checkout/' });
    history.pushState(null, '', '/checkout/upsell');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(await ui().findByTestId('signin-form')).toBeTruthy();
    history.pushState(null, '', '/checkout/');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(await ui().findAllByTestId('plan-card')).toHaveLength(3);
  });

  it('returns to its own waiting URL after payment', async () => {
    const api = installApi();
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    history.replaceState(null, '', '/checkout/de-de/');
    const { ui } = await mountIndex({ routing: 'history', base: '/checkout/' });
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    await waitFor(() => expect(api.callsTo('order.create')).toHaveLength(1));
    expect(api.callsTo('order.create')[0]!.body?.returnUrl).toBe(`${location.origin}/checkout/de-de/waiting?order={orderId}`);
    await waitFor(() => expect(location.pathname).toBe('/checkout/de-de/creatingOrder'));
  });

  it('lists reseller plans on /resellers with the second one selected', async () => {
    installApi();
    history.replaceState(null, '', '/checkout/resellers');
    const { ui } = await mountIndex({ routing: 'history', base: '/checkout/' });
    expect(ui().getByText('Reseller plans')).toBeTruthy();
    await waitFor(() =>
      expect(
        ui()
          .getAllByTestId('plan-card')
          .find((c) => c.getAttribute('aria-checked') === 'true')?.dataset.pid,
      ).toBe('11'),
    );
    const selected = ui()
      .getAllByTestId('plan-card')
      .find((c) => c.dataset.pid === '11')!;
    // The plan's credits, and the catalog's feature line saying the same.
    expect(within(selected).getAllByText('500 credits')).toHaveLength(2);
    expect(within(selected).getByText('Reseller Pro')).toBeTruthy();
  });
});
