import { fireEvent, waitFor, within } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyPersisted, savePersisted } from '../../core/persisted';
import { body } from '../../test/api/fixtures';
import { apiError, installApi } from '../../test/api/vitest';
import { mount } from '../../test/mount';

const PROVEN_TOKEN = body<{ token: string }>('session.create', '201.proven').token;
const EMAIL_TOKEN = body<{ token: string }>('session.create', '201').token;

function signIn(scope: 'email' | 'proven') {
  savePersisted({
    ...emptyPersisted(),
    auth: { loggedIn: true, user: { userid: 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab' } },
    user: { email: 'buyer@example.com' },
    token: scope === 'proven' ? PROVEN_TOKEN : EMAIL_TOKEN,
  });
}

/** "My services" of a signed-in buyer, and its "Orders and invoices" once loaded. */
async function openOrders(attrs: Record<string, string> = {}, scope: 'email' | 'proven' = 'proven') {
  signIn(scope);
  history.replaceState(null, '', '/checkout/?view=services');
  const m = mount({ routing: 'history', base: '/checkout/', ...attrs });
  await waitFor(() => m.ui());
  const section = await m.ui().findByTestId('orders');
  return { ...m, section };
}

afterEach(() => vi.restoreAllMocks());

describe('Orders and invoices in My services', () => {
  it('lists the orders newest first: date, what, total, status, and the PDFs of paid ones (en)', async () => {
    const api = installApi();
    const { section } = await openOrders();
    const s = within(section);
    expect(s.getByRole('heading', { name: 'Orders and invoices' })).toBeTruthy();
    const rows = await s.findAllByTestId('order-row');
    expect(rows.map((r) => r.dataset.orderId)).toEqual(['ord_storybook03', 'ord_storybookup', 'ord_storybook01']);
    const cell = (r: HTMLElement, id: string) => r.querySelector(`[data-testid="${id}"]`)?.textContent;
    const [pending, upsell, refunded] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(cell(pending, 'order-date')).toBe('March 1, 2030');
    expect(cell(pending, 'order-what')).toBe('Standard — Monthly');
    expect(cell(pending, 'order-total')).toBe('€12.99');
    expect(cell(pending, 'order-status')).toBe('Awaiting payment');
    // Nothing to download before the invoice is paid.
    expect(pending.querySelector('[data-testid="order-invoice"]')).toBeNull();
    expect(cell(upsell, 'order-what')).toBe('2 extra connections · SC-2030-000002');
    expect(cell(upsell, 'order-status')).toBe('Completed');
    expect(upsell.querySelector('[data-testid="order-invoice"]')!.getAttribute('aria-label')).toBe('Download invoice SC-2030-000002 (PDF)');
    expect(cell(refunded, 'order-status')).toBe('Partly refunded');
    expect(refunded.querySelector('[data-testid="order-credit-note"]')!.textContent).toBe('Credit note −€5.00');
    expect(api.callsTo('order.list')[0]!.headers.get('authorization')).toBe(`Bearer ${PROVEN_TOKEN}`);
  });

  it('speaks German (de-de): the plan’s cycle, the status and the date in German', async () => {
    installApi();
    const { section } = await openOrders({ locale: 'de-de' });
    const s = within(section);
    expect(s.getByRole('heading', { name: 'Bestellungen und Rechnungen' })).toBeTruthy();
    const [pending, upsell] = (await s.findAllByTestId('order-row')) as [HTMLElement, HTMLElement];
    expect(pending.querySelector('[data-testid="order-what"]')!.textContent).toBe('Standard — Monatlich');
    expect(pending.querySelector('[data-testid="order-date"]')!.textContent).toBe('1. März 2030');
    expect(pending.querySelector('[data-testid="order-status"]')!.textContent).toBe('Zahlung ausstehend');
    expect(pending.querySelector('[data-testid="order-total"]')!.textContent).toMatch(/^12,99\s€$/);
    expect(upsell.querySelector('[data-testid="order-invoice"]')!.textContent).toBe('Rechnung (PDF)');
  });

  // A taxed shop (EU VAT block, WHMCS mode or built-in): a WHMCS renewal invoice's order worded in
  // the buyer's language from its parts (it read "Renewal — Vierteljährlich"), and a credit note's
  // net and VAT beside its total as the receipt and its PDF set them out (it showed the total only).
  function taxedList() {
    type O = Record<string, unknown> & { quote: Record<string, unknown>; creditNotes: Record<string, unknown>[] };
    const orders = body<{ orders: O[] }>('order.list', '200').orders;
    const tax = { country: 'DE', rate: '19', amount: 207, currency: 'EUR', pricesIncludeTax: true, ipCountry: 'DE' };
    const eur = (amount: number) => ({ amount, currency: 'EUR' });
    const renewal: O = {
      ...orders[0]!,
      orderId: 'ord_storybookrn',
      createdAt: '2030-03-02T00:00:00Z',
      quote: {
        ...orders[0]!.quote,
        billingCycle: 'quarterly',
        lines: [{ key: 'plan', label: 'Renewal — Premium (2030-03-05)', amount: eur(1299) }],
        tax,
        net: eur(1092),
      },
    };
    const refunded: O = {
      ...orders[2]!,
      quote: { ...orders[2]!.quote, tax, net: eur(1092) },
      tax,
      net: eur(1092),
      creditNotes: [{ ...orders[2]!.creditNotes[0]!, tax: eur(80) }],
    };
    return { orders: [renewal, refunded] };
  }

  it.each([
    ['en', 'Renewal of Premium, Quarterly, due March 5, 2030', /^Net −€4\.20 · VAT 19% \(DE\) −€0\.80$/],
    ['de-de', 'Verlängerung von Premium, Vierteljährlich, fällig am 5. März 2030', /^Netto −4,20\s€ · MwSt\. 19 % \(DE\) −0,80\s€$/],
  ])('words a renewal from its parts and sets out a credit note’s net and VAT (%s)', async (locale, what, creditTax) => {
    const api = installApi();
    api.on('order.list', taxedList);
    const { section } = await openOrders({ locale });
    const [renewal, refunded] = (await within(section).findAllByTestId('order-row')) as [HTMLElement, HTMLElement];
    expect(renewal.querySelector('[data-testid="order-what"]')!.textContent).toBe(what);
    expect(refunded.querySelector('[data-testid="order-credit-note-tax"]')!.textContent).toMatch(creditTax);
  });

  it('shows no net or VAT of a credit note from an untaxed order', async () => {
    installApi();
    const { section } = await openOrders();
    const rows = await within(section).findAllByTestId('order-row');
    expect(within(rows[2]!).getByTestId('order-credit-note')).toBeTruthy();
    expect(within(rows[2]!).queryByTestId('order-credit-note-tax')).toBeNull();
  });

  it('downloads an invoice and a credit note with the session token, named after their numbers', async () => {
    const api = installApi();
    const blobs: Blob[] = [];
    Object.assign(URL, { createObjectURL: vi.fn((b: Blob) => (blobs.push(b), 'blob:pdf')), revokeObjectURL: vi.fn() });
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    const { section } = await openOrders();
    const rows = await within(section).findAllByTestId('order-row');
    fireEvent.click(within(rows[1]!).getByTestId('order-invoice'));
    await waitFor(() => expect(clicks).toEqual(['SC-2030-000002.pdf']));
    fireEvent.click(within(rows[2]!).getByTestId('order-credit-note'));
    await waitFor(() => expect(clicks).toEqual(['SC-2030-000002.pdf', 'CN-2030-000001.pdf']));
    expect(api.callsTo('GET /invoices/inv_storybookup.pdf')[0]!.headers.get('authorization')).toBe(`Bearer ${PROVEN_TOKEN}`);
    expect(api.callsTo('GET /credit-notes/cn_storybook01.pdf')[0]!.headers.get('authorization')).toBe(`Bearer ${PROVEN_TOKEN}`);
    expect(await blobs[1]!.text()).toContain('credit note cn_storybook01');
  });

  it('says why a PDF cannot be had, in its row', async () => {
    const api = installApi();
    api.on('invoices.pdf', () => apiError(404, 'not_found', 'Invoice not found.'));
    const { section } = await openOrders();
    const rows = await within(section).findAllByTestId('order-row');
    fireEvent.click(within(rows[1]!).getByTestId('order-invoice'));
    expect((await within(rows[1]!).findByTestId('order-error')).textContent).toBe('We could not find what you were looking for.');
  });

  it('shows a buying session’s orders too, and says when there are none', async () => {
    const api = installApi();
    api.on('order.list', '200.empty');
    const { section } = await openOrders({}, 'email');
    expect((await within(section).findByTestId('orders-empty')).textContent).toBe('No orders yet.');
    expect(api.callsTo('order.list')[0]!.headers.get('authorization')).toBe(`Bearer ${EMAIL_TOKEN}`);
  });

  it('offers to try again when the list fails, and the services stay', async () => {
    const api = installApi();
    let calls = 0;
    api.on('order.list', () =>
      calls++ === 0 ? apiError(500, 'fault', 'Internal error.', { fault: true }) : body<Record<string, unknown>>('order.list', '200'),
    );
    const { section, ui } = await openOrders();
    const s = within(section);
    expect((await s.findByTestId('orders-error')).textContent).toBe('Internal error.');
    expect(ui().getAllByTestId('service-card').length).toBeGreaterThan(0);
    fireEvent.click(s.getByTestId('orders-retry'));
    expect(await s.findAllByTestId('order-row')).toHaveLength(3);
  });
});
