// The after-sale screens' own loading (issue 25): while the services, the orders, the offers or a
// pay link's invoice load, a skeleton in the shape of the screen and a status saying in the buyer's
// language what loads, never a bare "Loading…"; the screen takes its place when the answer comes.
import { waitFor, within } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyPersisted, savePersisted } from '../../core/persisted';
import { body } from '../../test/api/fixtures';
import { installApi, type Handler } from '../../test/api/vitest';
import { mount } from '../../test/mount';

const PROVEN_TOKEN = body<{ token: string }>('session.create', '201.proven').token;
const HISTORY = { routing: 'history', base: '/checkout/' };

function signIn() {
  savePersisted({
    ...emptyPersisted(),
    auth: { loggedIn: true, user: { userid: 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab' } },
    user: { email: 'buyer@example.com' },
    token: PROVEN_TOKEN,
  });
}

/** An answer held until the test lets it go: the fixture's default one. */
function held(op: string, name = '200') {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const handler: Handler = async () => {
    await gate;
    return body<Record<string, unknown>>(op, name);
  };
  return { handler, release };
}

async function open(url: string, locale?: string) {
  history.replaceState(null, '', url);
  const m = mount({ ...HISTORY, ...(locale ? { locale } : {}) });
  await waitFor(() => m.ui());
  return m;
}

afterEach(() => vi.restoreAllMocks());

describe('after-sale screens loading their data', () => {
  it.each([
    ['en', 'Loading your services…', 'Loading your orders…'],
    ['de-de', 'Ihre Dienste werden geladen…', 'Ihre Bestellungen werden geladen…'],
    ['es-es', 'Cargando tus servicios…', 'Cargando tus pedidos…'],
  ])('My services and its orders (%s)', async (locale, services, orders) => {
    const api = installApi();
    const list = held('services.list');
    const ordersList = held('order.list');
    api.on('services.list', list.handler);
    api.on('order.list', ordersList.handler);
    signIn();
    const { ui } = await open('/checkout/?view=services', locale);
    const loading = await ui().findByTestId('services-loading');
    expect(loading.getAttribute('role')).toBe('status');
    expect(loading.getAttribute('aria-busy')).toBe('true');
    expect(within(loading).getByText(services)).toBeTruthy();
    expect(loading.querySelectorAll('.sc-skeleton-card').length).toBeGreaterThan(0);
    expect(loading.textContent).not.toContain('Loading…');
    list.release();
    await ui().findByTestId('services-view');
    expect(ui().queryByTestId('services-loading')).toBeNull();
    // The orders' box loads on its own: rows of blocks, the words heard, not seen.
    const rows = await ui().findByTestId('orders-loading');
    expect(rows.getAttribute('role')).toBe('status');
    expect(within(rows).getByText(orders)).toBeTruthy();
    expect(rows.querySelectorAll('.sc-skeleton-row').length).toBe(3);
    ordersList.release();
    await ui().findAllByTestId('order-row');
    expect(ui().queryByTestId('orders-loading')).toBeNull();
  });

  it('the upsell page while its offers load (nl-nl)', async () => {
    const api = installApi();
    const offers = held('upsell.offers');
    api.on('upsell.offers', offers.handler);
    signIn();
    const { ui } = await open('/checkout/upsell', 'nl-nl');
    const loading = await ui().findByTestId('upsell-loading');
    expect(loading.getAttribute('role')).toBe('status');
    expect(loading.textContent).toContain('De aanbiedingen worden geladen…');
    offers.release();
    await ui().findByTestId('upsell-view');
  });

  it('the renewal page of a pay link while its invoice loads (pt-pt)', async () => {
    const api = installApi();
    const invoice = held('invoices.get', '200.extra');
    api.on('invoices.get', invoice.handler);
    const { ui } = await open('/checkout/renew?invoice=inv_storybookr1&t=pay-token', 'pt-pt');
    const loading = await ui().findByTestId('renew-loading');
    expect(loading.getAttribute('role')).toBe('status');
    expect(loading.textContent).toContain('A carregar a sua fatura…');
    invoice.release();
    await ui().findByTestId('renew-view');
  });
});
