import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toCsv } from '../csv';
import { FakeApi, errorBody, line, order, orderDetail, summary } from '../test/fakeApi';
import { renderConsole } from '../test/render';

describe('setup', () => {
  it('refuses a short password before calling, then shows the secret, the otpauth URL and a QR code, and confirms', async () => {
    const fake = new FakeApi(null)
      .on('POST', '/setup', () => ({
        totpSecret: 'JBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/Streamcart:me%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Streamcart',
      }))
      .on('POST', '/setup/confirm', (c) =>
        (c.body as { otp: string }).otp === '654321' ? { status: 204 } : { status: 400, body: errorBody('invalid_otp') },
      );
    await renderConsole(fake, '/checkout/admin/setup?token=tok_1');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Repeat the password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByRole('alert').textContent).toBe('The password needs at least 12 characters.');
    expect(fake.calledWith('POST', '/setup')).toHaveLength(0);

    await user.type(screen.getByLabelText('New password'), ' and longer');
    await user.type(screen.getByLabelText('Repeat the password'), ' and longer');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByTestId('totp-secret')).textContent).toBe('JBSWY3DPEHPK3PXP');
    expect(fake.calledWith('POST', '/setup')[0]!.body).toEqual({ token: 'tok_1', password: 'short and longer' });
    expect(screen.getByTestId('otpauth-url').textContent).toMatch(/^otpauth:\/\/totp\//);
    const qr = screen.getByRole('img', { name: 'QR code of the authenticator link' });
    expect(qr.querySelector('path')!.getAttribute('d')!.length).toBeGreaterThan(100);

    await user.type(screen.getByLabelText('Authenticator code'), '111111');
    await user.click(screen.getByRole('button', { name: 'Finish setup' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/not the authenticator’s current one/);
    await user.clear(screen.getByLabelText('Authenticator code'));
    await user.type(screen.getByLabelText('Authenticator code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Finish setup' }));
    expect(await screen.findByTestId('setup-done')).toBeTruthy();
  });
});

describe('dashboard', () => {
  it('shows the counts, links each alert to its list, and draws one bar per day', async () => {
    const fake = new FakeApi('viewer').on('GET', '/summary', (c) => summary({ orders: Number(c.query.get('days')) }));
    await renderConsole(fake);
    const figures = await screen.findByTestId('figures');
    expect(within(figures).getByText('Monthly recurring revenue').nextSibling!.textContent).toBe('€2,398.66');
    expect(within(figures).getByText('Churn, last 30 days').nextSibling!.textContent).toBe('4.3%');
    expect(within(figures).getByText('Renewing within 30 days').nextSibling!.textContent).toBe('61 · €1,023.39');
    expect(within(figures).getByText('Refunds').nextSibling!.textContent).toBe('1 · €12.99');
    const counts = await screen.findByTestId('counts');
    expect(within(counts).getByText('Revenue (net of refunds)').nextSibling!.textContent).toBe('€142.89');
    expect(within(counts).getByText('Paid before refunds').nextSibling!.textContent).toBe('€155.88');
    expect(within(counts).getByText('Refunded').nextSibling!.textContent).toBe('€12.99');
    expect(within(counts).getByText('Orders').nextSibling!.textContent).toBe('30');
    const alerts = screen.getByTestId('alerts');
    expect(within(alerts).getByRole('link', { name: '2 orders are held by the fraud check' }).getAttribute('href')).toBe(
      '/checkout/admin/held',
    );
    expect(within(alerts).getByRole('link', { name: '1 dead job' }).getAttribute('href')).toBe('/checkout/admin/jobs?state=dead');
    expect(
      within(alerts)
        .getByRole('link', { name: '3 messages were never sent: no mail server is configured (set STREAMCART_SMTP_URL)' })
        .getAttribute('href'),
    ).toBe('/checkout/admin/mail?status=stored');
    const chart = screen.getByTestId('revenue-chart');
    expect(chart.getAttribute('aria-label')).toBe('Revenue net of refunds per day over 3 days, €142.89 in all');
    // Without a canvas (jsdom) the chart is its table: a row per day, every amount in the console's money format.
    expect(screen.getByTestId('chart-readout').textContent).toBe(
      'Point at a bar for that day’s amounts and orders, or show the days as a table.',
    );
    const table = screen.getByRole('table', { name: 'Revenue per day in EUR' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent))[0]).toEqual([
      '2026-11-21',
      '€25.98',
      '€38.97',
      '€12.99',
      '3',
    ]);
    await userEvent.selectOptions(screen.getByLabelText('Period'), '7');
    await waitFor(() => expect(within(screen.getByTestId('counts')).getByText('Orders').nextSibling!.textContent).toBe('7'));
  });
});

describe('orders', () => {
  it('sends the filters, keeps them in the URL, and pages with the cursor both ways', async () => {
    const fake = new FakeApi('viewer').on('GET', '/orders', (c) => {
      const cursor = c.query.get('cursor') ?? '';
      return cursor === 'c2'
        ? { orders: [order({ id: 'ord_2', email: 'b@example.com' })], nextCursor: '', gateways: ['sandbox', 'stripe'] }
        : { orders: [order()], nextCursor: 'c2', gateways: ['sandbox', 'stripe'] };
    });
    await renderConsole(fake, '/checkout/admin/orders');
    await screen.findByRole('link', { name: 'ord_1' });
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Status'), 'fraud');
    await user.type(screen.getByLabelText('Search'), 'buyer@');
    // The date in the console's locale (ui/DateField.tsx): year, month, day in English.
    await user.click(within(screen.getByRole('group', { name: 'Created from' })).getAllByRole('spinbutton')[0]!);
    await user.keyboard('20261101');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(location.search).toBe('?status=fraud&q=buyer%40&from=2026-11-01'));
    await waitFor(() => expect(fake.calledWith('GET', '/orders').at(-1)!.query.get('status')).toBe('fraud'));
    const q = fake.calledWith('GET', '/orders').at(-1)!.query;
    expect([q.get('q'), q.get('from'), q.get('to'), q.get('limit')]).toEqual(['buyer@', '2026-11-01', null, '50']);

    await user.click(await screen.findByRole('button', { name: 'Next page' }));
    await screen.findByRole('link', { name: 'ord_2' });
    expect(fake.calledWith('GET', '/orders').at(-1)!.query.get('cursor')).toBe('c2');
    expect(screen.getByText('Page 2')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next page' }).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await screen.findByRole('link', { name: 'ord_1' });
    expect(fake.calledWith('GET', '/orders').at(-1)!.query.get('cursor')).toBeNull();
  });

  it('exports every order the filters match as CSV, following nextCursor', async () => {
    const pages: Record<string, { orders: unknown[]; nextCursor: string; gateways: string[] }> = {
      '': { orders: [order({ id: 'ord_1' })], nextCursor: 'p2', gateways: ['sandbox'] },
      p2: { orders: [order({ id: 'ord_2', email: '=cmd@example.com' })], nextCursor: '', gateways: ['sandbox'] },
    };
    const fake = new FakeApi('viewer').on('GET', '/orders', (c) => pages[c.query.get('cursor') ?? '']);
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return 'blob:x';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await renderConsole(fake, '/checkout/admin/orders?status=active');
    await userEvent.click(await screen.findByRole('button', { name: 'Export all matching (CSV)' }));
    expect((await screen.findByText('Exported 2 orders.')).getAttribute('role')).toBe('status');
    const exports = fake.calledWith('GET', '/orders').slice(1);
    expect(exports.map((c) => [c.query.get('status'), c.query.get('limit'), c.query.get('cursor')])).toEqual([
      ['active', '200', null],
      ['active', '200', 'p2'],
    ]);
    const text = await blobs[0]!.text();
    expect(text.split('\r\n')[0]).toBe(
      'id,kind,product,status,email,customerId,amount,currency,refunded,net,gateway,invoiceId,invoiceStatus,promoCode,createdAt,paidAt',
    );
    expect(text).toContain("ord_2,plan,Basic,active,'=cmd@example.com,usr_1,1299,EUR,0,1299");
  });

  it('quotes CSV cells with commas, quotes and line breaks', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          ['line\nbreak', 3],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",3\r\n');
  });
});

describe('order detail', () => {
  it('shows the timeline, approves a held order and refunds part of a paid one with the CSRF token', async () => {
    let status = 'fraud';
    const fake = new FakeApi('owner').on('GET', '/orders/:id', () =>
      orderDetail(order({ status }), {
        timeline: [
          {
            at: '2026-11-20T10:00:00Z',
            kind: 'created',
            summary: 'plan order placed by a@example.com',
            outcome: '',
            detail: '',
            args: ['plan', 'a@example.com'],
          },
          {
            at: '2026-11-20T10:02:00Z',
            kind: 'job',
            summary: 'provision job 4, 3 attempt(s)',
            outcome: 'dead',
            detail: 'panel: timeout',
            args: ['provision', '4', '3'],
          },
        ],
      }),
    );
    const refund = {
      orderId: 'ord_1',
      amount: { amount: 500, currency: 'EUR' },
      method: 'sandbox',
      reference: 're_1',
      reason: 'goodwill',
      note: '',
      operator: 'me@example.com',
      createdAt: '2026-11-21T00:00:00Z',
    };
    const refunds: (typeof refund)[] = [];
    fake
      .on('GET', '/orders/:id/refunds', () => ({ refunds, refunded: { amount: 500 * refunds.length, currency: 'EUR' } }))
      .on('POST', '/orders/:id/approve', () => {
        status = 'active';
        return order({ status });
      })
      .on('POST', '/orders/:id/refund', () => {
        refunds.push(refund);
        return { order: order({ status: 'partially_refunded' }), refunded: { amount: 500, currency: 'EUR' }, refund, replayed: false };
      });
    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const timeline = await screen.findByTestId('timeline');
    expect(within(timeline).getByText('panel: timeout')).toBeTruthy();
    expect(within(timeline).getByText('dead')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const approve = await screen.findByRole('alertdialog', { name: 'Approve order ord_1?' });
    await user.click(within(approve).getByLabelText('Provision without payment (owner)'));
    await user.click(within(approve).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Order ord_1 approved without payment: its lines are being provisioned.')).toBeTruthy();
    expect(fake.calledWith('POST', '/orders/ord_1/approve')[0]!.headers['x-csrf-token']).toBe('csrf-123');
    expect(fake.calledWith('POST', '/orders/ord_1/approve')[0]!.body).toEqual({ mode: 'provision' });

    const form = await screen.findByTestId('refund-form');
    await user.type(within(form).getByLabelText('Amount (EUR)'), '5.00');
    await user.click(within(form).getByRole('button', { name: 'Refund…' }));
    expect(within(form).getByRole('alert').textContent).toBe('Say why you refund.');
    await user.type(within(form).getByLabelText('Reason'), 'goodwill');
    await user.click(within(form).getByRole('button', { name: 'Refund…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Refund order ord_1?' });
    await user.click(within(dialog).getByRole('button', { name: 'Refund €5.00' }));
    expect((await screen.findAllByText('Refunded €5.00 (€5.00 refunded on this order in all).')).length).toBeGreaterThan(0);
    expect(fake.calledWith('POST', '/orders/ord_1/refund')[0]!.body).toEqual({ amount: 500, reason: 'goodwill', keepLine: false });
    // The refunds list is fetched again and shows the new refund.
    const list = screen.getByRole('heading', { name: 'Refunds', level: 2 }).closest('section')!;
    expect(await within(list).findByText('re_1')).toBeTruthy();
  });

  it('shows a taxed order’s total before tax, its VAT and total, and the VAT each refund gave back', async () => {
    const taxed = order({ total: { amount: 600, currency: 'EUR' }, status: 'partially_refunded' });
    const fake = new FakeApi('owner')
      .on('GET', '/orders/:id', () =>
        orderDetail(taxed, {
          tax: { country: 'DE', rate: '19', amount: { amount: 96, currency: 'EUR' }, pricesIncludeTax: true },
          beforeTax: { amount: 504, currency: 'EUR' },
        }),
      )
      .on('GET', '/orders/:id/refunds', () => ({
        refunds: [
          {
            orderId: 'ord_1',
            amount: { amount: 300, currency: 'EUR' },
            tax: { amount: 48, currency: 'EUR' },
            method: 'sandbox',
            reference: 're_9',
            reason: 'goodwill',
            note: '',
            operator: 'owner@example.com',
            createdAt: '2026-11-21T00:00:00Z',
          },
        ],
        refunded: { amount: 300, currency: 'EUR' },
      }));
    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const facts = await screen.findByTestId('order-facts');
    expect(within(facts).getByTestId('order-before-tax').textContent).toBe('€5.04');
    const vat = within(facts).getByTestId('order-tax');
    expect(vat.textContent).toBe('€0.96');
    expect(vat.previousSibling!.textContent).toBe('VAT 19% (DE), included');
    expect(within(facts).getByText('Total').nextSibling!.textContent).toBe('€6.00');
    const list = screen.getByRole('heading', { name: 'Refunds', level: 2 }).closest('section')!;
    const row = (await within(list).findByText('re_9')).closest('tr')!;
    expect(within(list).getByRole('columnheader', { name: 'VAT' })).toBeTruthy();
    expect(within(row).getByText('€0.48')).toBeTruthy();
  });

  it('shows no tax for an order without tax', async () => {
    const fake = new FakeApi('owner')
      .on('GET', '/orders/:id', () => orderDetail())
      .on('GET', '/orders/:id/refunds', () => ({
        refunds: [],
        refunded: { amount: 0, currency: 'EUR' },
      }));
    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const facts = await screen.findByTestId('order-facts');
    expect(within(facts).queryByTestId('order-tax')).toBeNull();
    expect(within(facts).queryByTestId('order-before-tax')).toBeNull();
  });

  it('names what a full refund of a renewal or an upsell takes back, and keeps it when ticked', async () => {
    for (const [kind, label] of [
      ['renewal', 'Keep the renewed period on the line after a full refund'],
      ['upsell', 'Keep the extra connections on the line after a full refund'],
      ['reseller', 'Keep the credits on the reseller account after a full refund'],
      ['plan', 'Keep the line running after a full refund'],
    ] as const) {
      const fake = new FakeApi('owner')
        .on('GET', '/orders/:id', () => orderDetail(order({ kind, status: 'active' })))
        .on('GET', '/orders/:id/refunds', () => ({ refunds: [], refunded: { amount: 0, currency: 'EUR' } }))
        .on('POST', '/orders/:id/refund', () => ({
          order: order({ kind, status: 'refunded' }),
          refunded: { amount: 1299, currency: 'EUR' },
          refund: {
            orderId: 'ord_1',
            amount: { amount: 1299, currency: 'EUR' },
            method: 'sandbox',
            reference: 're_2',
            reason: 'kept',
            note: '',
            operator: 'me@example.com',
            createdAt: '2026-11-21T00:00:00Z',
          },
          replayed: false,
        }));
      const { unmount } = await renderConsole(fake, '/checkout/admin/orders/ord_1');
      const form = await screen.findByTestId('refund-form');
      const user = userEvent.setup();
      await user.type(within(form).getByLabelText('Reason'), 'kept');
      await user.click(within(form).getByLabelText(label));
      await user.click(within(form).getByRole('button', { name: 'Refund…' }));
      const dialog = await screen.findByRole('alertdialog');
      expect(within(dialog).getByText('The lines keep running (you chose to keep them).')).toBeTruthy();
      await user.click(within(dialog).getByRole('button', { name: 'Refund €12.99' }));
      expect((await screen.findAllByText('Refunded €12.99 (€12.99 refunded on this order in all).')).length).toBeGreaterThan(0);
      expect(fake.calledWith('POST', '/orders/ord_1/refund')[0]!.body).toEqual({ reason: 'kept', keepLine: true });
      unmount();
    }
  });

  it('a support operator may suspend a line but not terminate it or refund', async () => {
    const fake = new FakeApi('support')
      .on('GET', '/orders/:id', () => orderDetail())
      .on('GET', '/orders/:id/refunds', () => ({ refunds: [], refunded: { amount: 0, currency: 'EUR' } }))
      .on('POST', '/services/:id/suspend', () => line({ status: 'Suspended' }));
    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const row = (await screen.findByText('svc_1')).closest('tr')!;
    expect(within(row).getByRole<HTMLButtonElement>('button', { name: 'Terminate' }).disabled).toBe(true);
    expect(screen.queryByTestId('refund-form')).toBeNull();
    await userEvent.click(within(row).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('Line svc_1 suspended.')).toBeTruthy();
  });
});

describe('catalog', () => {
  it('lists each problem of a draft with its line and path, and a problem moves the caret to its line', async () => {
    const source = 'products:\n  - pid: 1\n    name: ""\n';
    const fake = new FakeApi('owner')
      .on('GET', '/catalog', () => ({
        version: { version: 3, operator: 'me@example.com', comment: '', sha256: 'ab'.repeat(32), createdAt: '2026-11-20T10:00:00Z' },
        source,
        published: true,
      }))
      .on('GET', '/catalog/versions', () => ({
        versions: [
          { version: 3, operator: 'me@example.com', comment: 'prices', sha256: 'ab'.repeat(32), createdAt: '2026-11-20T10:00:00Z' },
        ],
      }))
      .on('POST', '/catalog/draft', (c) => ({ source: (c.body as { source: string }).source, diff: '', base: 'ab'.repeat(32) }))
      .on('POST', '/catalog/check', () => ({
        status: 400,
        body: {
          name: 'invalid_catalog',
          message: 'invalid',
          line: 3,
          field: 'products[0].name',
          problems: [{ line: 3, path: 'products[0].name', field: 'products[0].name', message: 'is empty' }],
        },
      }));
    await renderConsole(fake, '/checkout/admin/catalog');
    const area = await screen.findByLabelText<HTMLTextAreaElement>('Catalog (YAML or JSON)');
    expect(area.value).toBe(source);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    const problems = await screen.findByTestId('catalog-problems');
    expect(problems.textContent).toContain('products[0].name: is empty');
    expect(fake.calledWith('POST', '/catalog/check')[0]!.body).toEqual({ source });
    expect(screen.getByRole('button', { name: 'Publish' })).toHaveProperty('disabled', true);
    await user.click(within(problems).getByRole('button', { name: 'Line 3' }));
    await waitFor(() => expect(document.activeElement).toBe(area));
    expect(area.selectionStart).toBe(source.indexOf('    name'));
  });
});

describe('other screens', () => {
  it('customers: search and sign a customer out; promotions: disable; operators: invite shows the link; mail: resend', async () => {
    const fake = new FakeApi('owner')
      .on('GET', '/customers', (c) => ({
        customers:
          c.query.get('q') === 'buyer'
            ? [{ id: 'usr_1', email: 'buyer@example.com', createdAt: '2026-11-20T10:00:00Z', orders: 1, activeLines: 1 }]
            : [],
      }))
      .on('GET', '/customers/:id', () => ({
        customer: { id: 'usr_1', email: 'buyer@example.com', createdAt: '2026-11-20T10:00:00Z', orders: 1, activeLines: 1 },
        orders: [order()],
        services: [line()],
        sessions: [{ id: 'ses_1', scope: 'proven', createdAt: '2026-11-20T10:00:00Z', expiresAt: '2026-12-20T10:00:00Z' }],
      }))
      .on('POST', '/customers/:id/signout', () => ({ sessionsEnded: 2 }))
      .on('GET', '/promotions', () => ({
        promotions: [
          {
            code: 'WELCOME',
            type: 'Percentage',
            value: '10',
            appliesTo: [],
            startDate: '',
            expirationDate: '',
            maxUses: 100,
            recurring: false,
            disabled: false,
            uses: 7,
            products: [],
            status: 'active',
          },
        ],
      }))
      .on('PATCH', '/promotions/:code', (c) => ({
        code: 'WELCOME',
        type: 'Percentage',
        value: '10',
        appliesTo: [],
        startDate: '',
        expirationDate: '',
        maxUses: 100,
        recurring: false,
        disabled: (c.body as { disabled: boolean }).disabled,
        uses: 7,
        products: [],
        status: (c.body as { disabled: boolean }).disabled ? 'disabled' : 'active',
      }))
      .on('GET', '/operators', () => ({
        operators: [{ email: 'me@example.com', role: 'owner', status: 'active', createdAt: '2026-11-20T10:00:00Z', disabledAt: '' }],
      }))
      .on('POST', '/operators', () => ({
        status: 201,
        body: {
          operator: { email: 'new@example.com', role: 'support', status: 'pending', createdAt: '2026-11-20T10:00:00Z', disabledAt: '' },
          setupUrl: 'https://shop.example/checkout/admin/setup?token=abc',
          expiresAt: '2026-11-21T10:00:00Z',
        },
      }))
      .on('GET', '/mail', () => ({
        mails: [
          {
            id: 9,
            to: 'buyer@example.com',
            subject: 'Your line',
            status: 'failed',
            attempts: 3,
            lastError: '550',
            createdAt: '2026-11-20T10:00:00Z',
            sentAt: '',
          },
        ],
        nextCursor: '',
      }))
      .on('POST', '/mail/:id/resend', () => ({
        id: 9,
        to: 'buyer@example.com',
        subject: 'Your line',
        status: 'queued',
        attempts: 0,
        lastError: '',
        createdAt: '2026-11-20T10:00:00Z',
        sentAt: '',
      }));
    const user = userEvent.setup();
    await renderConsole(fake, '/checkout/admin/customers');
    await user.type(screen.getByLabelText('Email or customer id'), 'buyer');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.click(await screen.findByRole('link', { name: 'buyer@example.com' }));
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('2 sessions ended.')).toBeTruthy();
    expect(screen.getByText('ses_1')).toBeTruthy();

    await user.click(screen.getByRole('link', { name: 'Promotions' }));
    const promo = (await screen.findByText('WELCOME')).closest('tr')!;
    expect(within(promo).getByText('7 / 100')).toBeTruthy();
    await user.click(within(promo).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Promotion WELCOME disabled.')).toBeTruthy();
    expect(fake.calledWith('PATCH', '/promotions/WELCOME')[0]!.body).toEqual({ disabled: true });

    await user.click(screen.getByRole('link', { name: 'Operators' }));
    const invite = await screen.findByTestId('invite');
    await user.type(within(invite).getByLabelText('Email'), 'new@example.com');
    await user.click(within(invite).getByRole('button', { name: 'Invite' }));
    expect((await screen.findByTestId('setup-url')).textContent).toBe('https://shop.example/checkout/admin/setup?token=abc');
    expect(fake.calledWith('POST', '/operators')[0]!.body).toEqual({ email: 'new@example.com', role: 'support' });

    await user.click(screen.getByRole('link', { name: 'Mail' }));
    await user.click(await screen.findByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('The message to buyer@example.com is queued again.')).toBeTruthy();
  });
});

describe('audit and line caps (issue 24)', () => {
  it('audit: filters by address, shows it, and the failed sign-ins button sets the action', async () => {
    const entry = {
      id: 7,
      at: '2026-11-26T10:00:00Z',
      operator: '',
      customerId: '',
      action: 'console-signin-failed',
      target: 'operator:owner@example.com',
      result: 'failed',
      detail: 'bad_password',
      ip: '203.0.113.7',
      args: ['signin-failed', 'bad_password'],
    };
    const fake = new FakeApi('viewer').on('GET', '/audit', () => ({ entries: [entry], nextCursor: '' }));
    await renderConsole(fake, '/checkout/admin/audit');
    await screen.findByText('203.0.113.7');
    // The reason worded from the entry's parts, not its code.
    expect(screen.getByText('wrong password')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Address'), '203.0.113.7');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(fake.calledWith('GET', '/audit').at(-1)!.query.get('ip')).toBe('203.0.113.7'));
    expect(location.search).toBe('?ip=203.0.113.7');
    await user.click(screen.getByRole('button', { name: 'Failed sign-ins' }));
    await waitFor(() => expect(fake.calledWith('GET', '/audit').at(-1)!.query.get('action')).toBe('console-signin-failed'));
    expect(fake.calledWith('GET', '/audit').at(-1)!.query.get('ip')).toBe('203.0.113.7');
  });

  it("an extension past support's cap shows the server's message with the days that remain", async () => {
    const message = 'Support may extend a line by at most 31 days within 30 days: 4 days remain for this line.';
    const fake = new FakeApi('support')
      .on('GET', '/orders/:id', () => orderDetail())
      .on('GET', '/orders/:id/refunds', () => ({ refunds: [], refunded: { amount: 0, currency: 'EUR' } }))
      .on('POST', '/services/:id/extend', () => ({ status: 403, body: errorBody('extend_limit', message) }));
    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const row = (await screen.findByText('svc_1')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Extend' }));
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it("a line's service id links to it in Subscriptions", async () => {
    const fake = new FakeApi('viewer')
      .on('GET', '/orders/:id', () => orderDetail())
      .on('GET', '/orders/:id/refunds', () => ({ refunds: [], refunded: { amount: 0, currency: 'EUR' } }));
    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const link = (await screen.findByText('svc_1')).closest('a')!;
    expect(link.getAttribute('href')).toBe('/checkout/admin/subscriptions?q=svc_1');
  });

  it('when WHMCS bills the lines, the order page offers no extend (WHMCS owns due dates) but keeps suspend and terminate', async () => {
    const fake = new FakeApi('owner')
      .on('GET', '/orders/:id', () => orderDetail())
      .on('GET', '/orders/:id/refunds', () => ({ refunds: [], refunded: { amount: 0, currency: 'EUR' } }));
    fake.billing = 'whmcs';
    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const row = (await screen.findByText('svc_1')).closest('tr')!;
    expect(within(row).queryByRole('button', { name: 'Extend' })).toBeNull();
    expect(within(row).queryByRole('spinbutton')).toBeNull();
    expect(within(row).getByRole('button', { name: 'Suspend' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Terminate' })).toBeTruthy();
  });
});

describe('payments to review', () => {
  const payment = (over: Record<string, unknown> = {}) => ({
    id: 'pay_1',
    orderId: 'ord_1',
    provider: 'stripe',
    transactionId: 'stripe:cs_1',
    amount: 1,
    currency: 'EUR',
    expected: { amount: 1299, currency: 'EUR' },
    reason: 'short',
    state: 'review',
    refundable: true,
    refundId: '',
    reference: '',
    refundError: '',
    decidedBy: '',
    createdAt: '2026-11-20T10:00:00Z',
    ...over,
  });

  it('refunds through the provider and accepts, each after a confirmation; crypto needs the refund reference', async () => {
    const rows = [
      payment(),
      payment({ id: 'pay_2', orderId: 'ord_2', provider: 'coinbase', currency: 'USDC', amount: 1000, refundable: false }),
    ];
    const fake = new FakeApi('owner')
      .on('GET', '/payments', (c) => ({ payments: c.query.get('state') === 'review' ? rows : [] }))
      .on('POST', '/payments/:id/refund', (_c, [id]) => payment({ id, state: 'refunded', refundId: 're_1', decidedBy: 'me@example.com' }))
      .on('POST', '/payments/:id/accept', (_c, [id]) => ({
        payment: payment({ id, state: 'accepted', decidedBy: 'me@example.com' }),
        order: order({ status: 'paid' }),
      }));
    await renderConsole(fake, '/checkout/admin/payments');
    const table = await screen.findByRole('table', { name: 'Payments to review' });
    const [, stripeRow, coinbaseRow] = within(table).getAllByRole('row');
    expect(within(stripeRow!).getByText('€0.01')).toBeTruthy();
    expect(within(stripeRow!).getByText('€12.99')).toBeTruthy();
    const user = userEvent.setup();

    await user.click(within(stripeRow!).getByRole('button', { name: 'Refund' }));
    expect(fake.calledWith('POST', '/payments/pay_1/refund')).toHaveLength(0);
    await user.click(within(stripeRow!).getByRole('button', { name: 'Give back €0.01 in full' }));
    expect(await screen.findByText('Refunded €0.01.')).toBeTruthy();
    const sent = fake.calledWith('POST', '/payments/pay_1/refund')[0]!;
    expect(sent.body).toEqual({});
    expect(sent.headers['x-csrf-token']).toBe('csrf-123');

    await user.click(within(coinbaseRow!).getByRole('button', { name: 'Refund' }));
    await user.click(within(coinbaseRow!).getByRole('button', { name: /^Give back/ }));
    expect(within(coinbaseRow!).getByRole('alert').textContent).toContain('give that refund’s reference');
    expect(fake.calledWith('POST', '/payments/pay_2/refund')).toHaveLength(0);
    await user.type(within(coinbaseRow!).getByLabelText('Refund reference'), '0xabc');
    await user.click(within(coinbaseRow!).getByRole('button', { name: 'Refund' }));
    await user.click(within(coinbaseRow!).getByRole('button', { name: /^Give back/ }));
    await waitFor(() => expect(fake.calledWith('POST', '/payments/pay_2/refund')[0]!.body).toEqual({ reference: '0xabc' }));

    await user.click(within(stripeRow!).getByRole('button', { name: 'Accept' }));
    await user.click(within(stripeRow!).getByRole('button', { name: 'Take €0.01 as payment of €12.99' }));
    expect(await screen.findByText('Accepted as payment of order ord_1: its lines are being provisioned.')).toBeTruthy();
  });

  it('a viewer sees the list but cannot refund or accept; the dashboard links its count here', async () => {
    const fake = new FakeApi('viewer')
      .on('GET', '/payments', () => ({ payments: [payment()] }))
      .on('GET', '/summary', () => summary({ moneyToReview: 1 }));
    await renderConsole(fake, '/checkout/admin/payments');
    const table = await screen.findByRole('table', { name: 'Payments to review' });
    expect(within(table).getByRole('button', { name: 'Refund' }).hasAttribute('disabled')).toBe(true);
    expect(within(table).getByRole('button', { name: 'Accept' }).hasAttribute('disabled')).toBe(true);
    expect(fake.calledWith('GET', '/payments')[0]!.query.get('state')).toBe('review');
  });
});
