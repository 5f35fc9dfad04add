import { fireEvent, waitFor, within } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, installApi } from '../../test/api/vitest';
import { body } from '../../test/api/fixtures';
import { mount } from '../../test/mount';
import { emptyPersisted, savePersisted } from '../../core/persisted';

function paidWith(gateway: string) {
  const p = emptyPersisted();
  savePersisted({
    ...p,
    auth: { loggedIn: true, user: { userid: 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab' } },
    user: { email: 'buyer@example.com' },
    token: 'tok-buyer',
    payment: { gateway, url: '', deadline: '' },
  });
  history.replaceState(null, '', '/?sc_order=ord_storybook01');
}

/** An active order bought with a promo code: two lines, a discount and a credit note. */
function discounted() {
  const o = body<{ quote: Record<string, unknown> } & Record<string, unknown>>('order.get', '200.active');
  return {
    ...o,
    total: { amount: 1169, currency: 'EUR' },
    quote: {
      ...o.quote,
      extraConnections: 1,
      lines: [
        { key: 'plan', label: 'Standard — Monthly', amount: { amount: 1299, currency: 'EUR' } },
        { key: 'extraConnections', label: '1 extra connection', amount: { amount: 0, currency: 'EUR' } },
      ],
      discount: { code: 'SAVE10', type: 'Percentage', value: '10', amount: { amount: 130, currency: 'EUR' } },
      total: { amount: 1169, currency: 'EUR' },
    },
    creditNotes: [
      {
        id: 'cn_1',
        number: 'CN-2030-000001',
        amount: { amount: 500, currency: 'EUR' },
        pdfUrl: 'http://x/checkout/api/credit-notes/cn_1.pdf',
      },
    ],
  };
}

async function receipt(ui: () => ReturnType<ReturnType<typeof mount>['ui']>) {
  await waitFor(() => ui());
  return ui().findByTestId('receipt');
}

afterEach(() => vi.restoreAllMocks());

describe('the receipt on the success page', () => {
  it('shows the items, discount, total, payment method and invoice number (en)', async () => {
    const api = installApi();
    api.on('order.get', discounted);
    paidWith('sandbox');
    const { ui } = mount();
    const r = within(await receipt(ui));
    expect(r.getByRole('heading', { name: 'Your receipt' })).toBeTruthy();
    const lines = r.getByTestId('receipt-lines').textContent;
    expect(lines).toContain('Standard — Monthly');
    expect(lines).toContain('€12.99');
    expect(lines).toContain('Discount (SAVE10)');
    expect(lines).toContain('−€1.30');
    expect(r.getByTestId('receipt-total').textContent).toBe('Total paid€11.69');
    expect(r.getByTestId('receipt-number').textContent).toBe('SC-2030-000001');
    expect(await r.findByTestId('receipt-method')).toHaveProperty('textContent', 'Card (sandbox)');
    expect((await r.findByTestId('receipt-renews')).textContent).toBe('Then €12.99 each month until you cancel.');
    expect(r.getByTestId('receipt-credit-note').textContent).toBe('Credit note CN-2030-000001−€5.00');
    // An untaxed order's credit note: no net or VAT to show.
    expect(r.queryByTestId('credit-note-tax')).toBeNull();
    expect(r.getByTestId('invoice-download').textContent).toBe('Download invoice');
  });

  it('speaks German (de-de)', async () => {
    const api = installApi();
    api.on('order.get', discounted);
    paidWith('sandbox');
    const { ui } = mount({ locale: 'de-de' });
    const r = within(await receipt(ui));
    expect(r.getByRole('heading', { name: 'Ihre Quittung' })).toBeTruthy();
    expect(r.getByTestId('receipt-lines').textContent).toContain('Rabatt (SAVE10)');
    // The items in German too, not the server's English labels.
    expect(r.getByTestId('receipt-lines').textContent).toContain('1 zusätzliche Verbindung');
    expect(r.getByTestId('receipt-lines').textContent).not.toContain('extra connection');
    expect(r.getByTestId('receipt-total').textContent).toMatch(/^Bezahlt11,69\s€$/);
    expect(r.getByText('Rechnungsnummer')).toBeTruthy();
    expect(await r.findByTestId('receipt-method')).toHaveProperty('textContent', 'Karte (Sandbox)');
    expect(r.getByTestId('invoice-download').textContent).toBe('Rechnung herunterladen');
  });

  it('downloads the invoice PDF with the session token, as a blob named after its number', async () => {
    const api = installApi();
    api.on('order.get', ['200.active']);
    paidWith('sandbox');
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((b: Blob) => (blobs.push(b), 'blob:invoice'));
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(`${this.download} ${this.href}`);
    });
    const { ui } = mount();
    const r = within(await receipt(ui));
    fireEvent.click(r.getByTestId('invoice-download'));
    await waitFor(() => expect(clicks).toEqual(['SC-2030-000001.pdf blob:invoice']));
    const call = api.callsTo('GET /invoices/inv_storybook01.pdf')[0]!;
    expect(call.headers.get('authorization')).toBe('Bearer tok-buyer');
    expect(blobs[0]!.type).toBe('application/pdf');
    expect(await blobs[0]!.text()).toContain('%PDF-1.7');
  });

  it('says why when the PDF cannot be had', async () => {
    const api = installApi();
    api.on('order.get', ['200.active']);
    api.on('invoices.pdf', () => apiError(404, 'not_found', 'Invoice not found.'));
    paidWith('sandbox');
    const { ui } = mount();
    const r = within(await receipt(ui));
    fireEvent.click(r.getByTestId('invoice-download'));
    await waitFor(() => expect(r.getByTestId('invoice-error').textContent).toBe('We could not find what you were looking for.'));
    expect(api.callsTo('GET /invoices/inv_storybook01.pdf')).toHaveLength(1);
  });

  it('offers no download before the invoice is paid', async () => {
    const api = installApi();
    api.on('order.get', () => ({ ...body<object>('order.get', '200.active'), invoiceNumber: null, receiptUrl: null }));
    paidWith('sandbox');
    const second = mount();
    const r2 = within(await receipt(second.ui));
    expect(r2.queryByTestId('invoice-download')).toBeNull();
    expect(r2.queryByTestId('receipt-number')).toBeNull();
  });

  // A shop with a tax block (prices including VAT): the order's net and its VAT at the buyer's
  // country's rate, above the total, in the buyer's words.
  function taxed() {
    const o = discounted();
    const tax = { country: 'DE', rate: '19', amount: 187, currency: 'EUR', pricesIncludeTax: true, ipCountry: 'DE' };
    return { ...o, quote: { ...o.quote, net: { amount: 982, currency: 'EUR' }, tax }, net: { amount: 982, currency: 'EUR' }, tax };
  }

  it.each([
    ['en', 'Net€9.82', 'VAT 19% (DE)€1.87', /^Total paid€11\.69$/],
    ['de-de', /^Netto9,82\s€$/, /^MwSt\. 19 % \(DE\)1,87\s€$/, /^Bezahlt11,69\s€$/],
  ])('shows the net, the VAT and the total of a taxed order (%s)', async (locale, net, vat, total) => {
    const api = installApi();
    api.on('order.get', taxed);
    paidWith('sandbox');
    const { ui } = mount({ locale });
    const r = within(await receipt(ui));
    const match = (el: HTMLElement, want: string | RegExp) =>
      typeof want === 'string' ? expect(el.textContent).toBe(want) : expect(el.textContent).toMatch(want);
    match(r.getByTestId('receipt-net'), net);
    match(r.getByTestId('receipt-tax'), vat);
    match(r.getByTestId('receipt-total'), total);
  });

  // A refund of a taxed order: its credit note set out as the invoice is, with the VAT it gives back
  // at the invoice's rate and country, in every locale's words.
  function taxedRefund() {
    const o = taxed();
    return {
      ...o,
      status: 'partially_refunded',
      creditNotes: [{ ...o.creditNotes[0]!, amount: { amount: 500, currency: 'EUR' }, tax: { amount: 80, currency: 'EUR' } }],
    };
  }

  it.each([
    ['en', 'Credit note CN-2030-000001−€5.00', 'Net−€4.20', 'VAT 19% (DE)−€0.80'],
    ['en-us', 'Credit note CN-2030-000001−€5.00', 'Net−€4.20', 'VAT 19% (DE)−€0.80'],
    ['en-gb', 'Credit note CN-2030-000001−€5.00', 'Net−€4.20', 'VAT 19% (DE)−€0.80'],
    ['de-de', /^Gutschrift CN-2030-000001−5,00\s€$/, /^Netto−4,20\s€$/, /^MwSt\. 19 % \(DE\)−0,80\s€$/],
    ['es-es', /^Factura rectificativa CN-2030-000001−5,00\s€$/, /^Base imponible−4,20\s€$/, /^IVA 19 % \(DE\)−0,80\s€$/],
    ['nl-nl', /^Creditnota CN-2030-000001−€\s?5,00$/, /^Netto−€\s?4,20$/, /^Btw 19% \(DE\)−€\s?0,80$/],
    ['pt-pt', /^Nota de crédito CN-2030-000001−5,00\s€$/, /^Valor líquido−4,20\s€$/, /^IVA 19% \(DE\)−0,80\s€$/],
  ])('shows a credit note of a taxed order with its net and VAT (%s)', async (locale, head, net, vat) => {
    const api = installApi();
    api.on('order.get', taxedRefund);
    paidWith('sandbox');
    const { ui } = mount({ locale });
    const r = within(await receipt(ui));
    const note = within(r.getByTestId('receipt-credit-note'));
    const match = (text: string | null, want: string | RegExp) =>
      typeof want === 'string' ? expect(text).toBe(want) : expect(text).toMatch(want);
    match(note.getByTestId('credit-note-head').textContent, head);
    match(note.getByTestId('credit-note-net').textContent, net);
    match(note.getByTestId('credit-note-tax').textContent, vat);
  });

  it('shows no tax of nothing for a free order (a trial in a taxed shop)', async () => {
    const api = installApi();
    api.on('order.get', () => {
      const o = taxed();
      const zero = { amount: 0, currency: 'EUR' };
      return { ...o, total: zero, net: zero, quote: { ...o.quote, discount: null, net: zero, total: zero, tax: { ...o.tax, amount: 0 } } };
    });
    paidWith('sandbox');
    const { ui } = mount();
    const r = within(await receipt(ui));
    expect(r.queryByTestId('receipt-tax')).toBeNull();
    expect(r.queryByTestId('receipt-net')).toBeNull();
  });

  // The success page of an order refunded in full (its address kept from the order mail): it was
  // "Welcome aboard!", a cancelled line whose login details were "being prepared", and what renews.
  it.each([
    ['en', 'This order was refunded.', 'Then €'],
    ['de-de', 'Diese Bestellung wurde erstattet.', 'Danach'],
  ])('says a refunded order was refunded, with its receipt and credit note and nothing that renews (%s)', async (locale, title, renews) => {
    const api = installApi();
    api.on('order.get', () => ({ ...taxedRefund(), status: 'refunded' }));
    paidWith('sandbox');
    history.replaceState(null, '', '/checkout/success?order=ord_storybook01');
    const { ui } = mount({ locale, routing: 'history', base: '/checkout/' });
    await waitFor(() => ui());
    const page = await ui().findByTestId('order-refunded');
    expect(within(page).getByRole('heading', { level: 2 }).textContent).toBe(title);
    expect(within(page).queryByText(/Welcome|Willkommen/)).toBeNull();
    expect(within(page).getByTestId('receipt-credit-note')).toBeTruthy();
    expect(within(page).getByTestId('receipt').textContent).not.toContain(renews);
    expect(ui().queryByTestId('success-credentials')).toBeNull();
  });

  // What renews, worded as the checkout worded it before payment ("alle 3 Monate" there, once
  // "pro 3 Monate" here): the checkout's sentence and cycle words are the receipt's.
  it.each([
    ['en', 'Then €60.99 every 3 months until you cancel.'],
    ['en-us', 'Then €60.99 every 3 months until you cancel.'],
    ['en-gb', 'Then €60.99 every 3 months until you cancel.'],
    ['de-de', /^Danach 60,99\s€ alle 3 Monate, bis Sie kündigen\.$/],
    ['es-es', /^Después, 60,99\s€ cada 3 meses hasta que canceles\.$/],
    ['nl-nl', /^Daarna €\s?60,99 elke 3 maanden tot je opzegt\.$/],
    ['pt-pt', /^Depois, 60,99\s€ a cada 3 meses até cancelar\.$/],
  ])("says what renews in the checkout's words (%s)", async (locale, want) => {
    const api = installApi();
    api.on('order.get', () => ({ ...discounted(), recurring: { amount: 6099, currency: 'EUR', billingCycle: 'quarterly' } }));
    paidWith('sandbox');
    const { ui } = mount({ locale });
    const r = within(await receipt(ui));
    const text = (await r.findByTestId('receipt-renews')).textContent;
    if (typeof want === 'string') expect(text).toBe(want);
    else expect(text).toMatch(want);
  });

  it('shows no tax line for an order without tax', async () => {
    const api = installApi();
    api.on('order.get', discounted);
    paidWith('sandbox');
    const { ui } = mount();
    const r = within(await receipt(ui));
    expect(r.queryByTestId('receipt-tax')).toBeNull();
    expect(r.queryByTestId('receipt-net')).toBeNull();
  });
});
