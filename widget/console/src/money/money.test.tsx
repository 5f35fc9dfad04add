import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatMoney as widgetMoney } from '../../../src/i18n/format';
import { formatMoney } from '../format';
import { FakeApi, order, orderDetail } from '../test/fakeApi';
import { renderConsole } from '../test/render';

const refundOf = (amount: number) => ({
  orderId: 'ord_1',
  amount: { amount, currency: 'EUR' },
  method: 'sandbox',
  reference: 're_1',
  reason: 'goodwill',
  note: '',
  operator: 'me@example.com',
  createdAt: '2026-11-21T00:00:00Z',
});

describe('refund dialog', () => {
  it('states the effect, sends one Idempotency-Key however often confirmed, and empties the form after', async () => {
    const keys: string[] = [];
    let refunded = 0;
    const fake = new FakeApi('owner')
      .on('GET', '/orders/:id', () => orderDetail(order({ refunded: { amount: refunded, currency: 'EUR' } })))
      .on('GET', '/orders/:id/refunds', () => ({ refunds: [], refunded: { amount: refunded, currency: 'EUR' } }))
      .on('POST', '/orders/:id/refund', (c) => {
        const key = c.headers['idempotency-key']!;
        const replayed = keys.includes(key);
        keys.push(key);
        if (!replayed) refunded += 300;
        return {
          order: order({ status: 'partially_refunded' }),
          refund: refundOf(300),
          refunded: { amount: refunded, currency: 'EUR' },
          replayed,
        };
      });
    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const user = userEvent.setup();
    const form = await screen.findByTestId('refund-form');
    await user.type(within(form).getByLabelText('Amount (EUR)'), '3');
    await user.type(within(form).getByLabelText('Reason'), 'goodwill');
    await user.click(within(form).getByRole('button', { name: 'Refund…' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Refund order ord_1?' });
    // The effect: the amount, the gateway, and what becomes of the line.
    expect(within(dialog).getByTestId('refund-effect').textContent).toBe(
      '€3.00 of the €12.99 paid goes back to the buyer through sandbox. The order becomes partially refunded; its lines keep running.',
    );
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(fake.calledWith('POST', '/orders/ord_1/refund')).toHaveLength(0);

    const confirm = within(dialog).getByRole('button', { name: 'Refund €3.00' });
    await user.dblClick(confirm);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    const calls = fake.calledWith('POST', '/orders/ord_1/refund');
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(new Set(calls.map((c) => c.headers['idempotency-key'])).size).toBe(1);
    expect(calls[0]!.headers['idempotency-key']).toMatch(/^console-[0-9a-f]{32}$/);
    expect(calls[0]!.body).toEqual({ amount: 300, reason: 'goodwill', keepLine: false });
    expect(refunded).toBe(300);

    // The form is empty again, ready for another refund with a new dialog and a new key.
    const after = await screen.findByTestId('refund-form');
    await waitFor(() => expect(within(after).getByLabelText<HTMLInputElement>('Reason').value).toBe(''));
    expect(within(after).getByLabelText<HTMLInputElement>('Amount (EUR)').value).toBe('');
    expect(within(after).getByLabelText<HTMLInputElement>('Keep the line running after a full refund').checked).toBe(false);
    await user.type(within(after).getByLabelText('Reason'), 'the rest');
    await user.click(within(after).getByRole('button', { name: 'Refund…' }));
    const second = await screen.findByRole('alertdialog');
    expect(within(second).getByTestId('refund-effect').textContent).toContain('€9.99, all that is left');
    expect(within(second).getByText('The order’s lines are switched off and cancelled.')).toBeTruthy();
    await user.click(within(second).getByRole('button', { name: 'Refund €9.99' }));
    await waitFor(() => expect(fake.calledWith('POST', '/orders/ord_1/refund').at(-1)!.headers['idempotency-key']).not.toBe(keys[0]));
  });

  it('Escape and Cancel close the dialog and refund nothing; the form keeps what was typed', async () => {
    const fake = new FakeApi('owner')
      .on('GET', '/orders/:id', () => orderDetail())
      .on('GET', '/orders/:id/refunds', () => ({ refunds: [], refunded: { amount: 0, currency: 'EUR' } }));
    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const user = userEvent.setup();
    const form = await screen.findByTestId('refund-form');
    await user.type(within(form).getByLabelText('Reason'), 'asked');
    const open = within(form).getByRole('button', { name: 'Refund…' });
    await user.click(open);
    const dialog = await screen.findByRole('alertdialog');
    // Focus is inside the dialog.
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await user.click(open);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(fake.calledWith('POST', '/orders/ord_1/refund')).toHaveLength(0);
    expect(within(form).getByLabelText<HTMLInputElement>('Reason').value).toBe('asked');
  });

  it('refuses more than is left before asking', async () => {
    const fake = new FakeApi('owner')
      .on('GET', '/orders/:id', () => orderDetail(order({ refunded: { amount: 1000, currency: 'EUR' }, status: 'partially_refunded' })))
      .on('GET', '/orders/:id/refunds', () => ({ refunds: [], refunded: { amount: 1000, currency: 'EUR' } }));
    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const user = userEvent.setup();
    const form = await screen.findByTestId('refund-form');
    await user.type(within(form).getByLabelText('Amount (EUR)'), '5');
    await user.type(within(form).getByLabelText('Reason'), 'too much');
    await user.click(within(form).getByRole('button', { name: 'Refund…' }));
    expect(within(form).getByRole('alert').textContent).toBe('At most €2.99 is left to refund on this order.');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('approve dialog', () => {
  it('support asks the buyer to pay; provisioning unpaid is the owner’s', async () => {
    const fake = new FakeApi('support')
      .on('GET', '/orders', () => ({
        orders: [order({ status: 'fraud', invoiceStatus: 'cancelled', paidAt: '' })],
        nextCursor: '',
        gateways: ['sandbox'],
      }))
      .on('POST', '/orders/:id/approve', () => order({ status: 'pending', invoiceStatus: 'unpaid', paidAt: '' }));
    await renderConsole(fake, '/checkout/admin/held');
    const user = userEvent.setup();
    const row = (await screen.findByRole('link', { name: 'ord_1' })).closest('tr')!;
    // Rejecting refunds: the owner's; support's reason field is off.
    expect(within(row).getByLabelText<HTMLInputElement>('Reason to reject ord_1 (optional)').disabled).toBe(true);
    await user.click(within(row).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Approve order ord_1?' });
    expect(within(dialog).getByLabelText<HTMLInputElement>('Ask the buyer to pay').checked).toBe(true);
    expect(within(dialog).getByLabelText<HTMLInputElement>('Provision without payment (owner)').disabled).toBe(true);
    expect(within(dialog).getByTestId('approve-effect').textContent).toBe(
      'The order goes back to pending with a new 24-hour deadline, and buyer@example.com is mailed a link to pay €12.99. Nothing is set up until it is paid.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Order ord_1 is pending again: buyer@example.com was mailed the link to pay.')).toBeTruthy();
    expect(fake.calledWith('POST', '/orders/ord_1/approve')[0]!.body).toEqual({ mode: 'request-payment' });
  });

  it('the owner rejects one row with that row’s reason', async () => {
    const held = [order({ id: 'ord_1', status: 'fraud' }), order({ id: 'ord_2', status: 'fraud', email: 'b@example.com' })];
    const fake = new FakeApi('owner')
      .on('GET', '/orders', () => ({ orders: held, nextCursor: '', gateways: ['sandbox'] }))
      .on('POST', '/orders/:id/reject', (_c, [id]) => ({ order: order({ id, status: 'cancelled' }) }));
    await renderConsole(fake, '/checkout/admin/held');
    const user = userEvent.setup();
    await screen.findByRole('link', { name: 'ord_2' });
    await user.type(screen.getByLabelText('Reason to reject ord_1 (optional)'), 'looks fine');
    await user.type(screen.getByLabelText('Reason to reject ord_2 (optional)'), 'stolen card');
    const row = screen.getByRole('link', { name: 'ord_2' }).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Reject' }));
    await user.click(within(row).getByRole('button', { name: 'Reject and refund' }));
    expect(await screen.findByText('Order ord_2 rejected.')).toBeTruthy();
    expect(fake.calledWith('POST', '/orders/ord_2/reject')[0]!.body).toEqual({ reason: 'stolen card' });
    expect(fake.calledWith('POST', '/orders/ord_1/reject')).toHaveLength(0);
  });
});

describe('orders and their money', () => {
  it('lists kind, product and net, filters by kind, and offers the configured gateways', async () => {
    const fake = new FakeApi('viewer').on('GET', '/orders', () => ({
      orders: [order({ kind: 'trial', product: 'Free trial', total: { amount: 0, currency: 'EUR' }, net: { amount: 0, currency: 'EUR' } })],
      nextCursor: '',
      gateways: ['sandbox', 'stripe'],
    }));
    await renderConsole(fake, '/checkout/admin/orders');
    const user = userEvent.setup();
    const row = (await screen.findByRole('link', { name: 'ord_1' })).closest('tr')!;
    expect(within(row).getByText('Trial')).toBeTruthy();
    expect(within(row).getByText('Free trial')).toBeTruthy();
    const gateway = screen.getByLabelText<HTMLSelectElement>('Gateway');
    expect([...gateway.options].map((o) => o.value)).toEqual(['', 'sandbox', 'stripe']);
    await user.selectOptions(screen.getByLabelText('Kind'), 'renewal');
    await user.selectOptions(gateway, 'stripe');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(fake.calledWith('GET', '/orders').at(-1)!.query.get('kind')).toBe('renewal'));
    expect(fake.calledWith('GET', '/orders').at(-1)!.query.get('gateway')).toBe('stripe');
  });

  it('shows an order’s items, refunded and net, and why it was held', async () => {
    const fake = new FakeApi('viewer').on('GET', '/orders/:id', () =>
      orderDetail(order({ status: 'fraud', invoiceStatus: 'cancelled', paidAt: '', net: { amount: 0, currency: 'EUR' } }), {
        items: [
          {
            kind: 'plan',
            description: 'Basic — Monthly',
            args: ['plan', 'Basic', 'monthly'],
            quantity: 1,
            unitAmount: { amount: 999, currency: 'EUR' },
            amount: { amount: 999, currency: 'EUR' },
          },
          {
            kind: 'extra',
            description: '2 extra connections',
            args: ['extra', '2'],
            quantity: 2,
            unitAmount: { amount: 200, currency: 'EUR' },
            amount: { amount: 400, currency: 'EUR' },
          },
          {
            kind: 'discount',
            description: 'Promotion WINTER',
            args: ['promotion', 'WINTER'],
            quantity: 1,
            unitAmount: { amount: -100, currency: 'EUR' },
            amount: { amount: -100, currency: 'EUR' },
          },
        ],
        net: { amount: 0, currency: 'EUR' },
        hold: { rules: [{ rule: 'orders-per-ip', value: '21', limit: '20' }], ip: '203.0.113.9', country: 'NL', ordersFromIp: 21 },
      }),
    );
    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const items = (await screen.findByRole('heading', { name: 'Items' })).closest('section')!;
    expect(within(items).getByText('Extra connections')).toBeTruthy();
    expect(within(items).getAllByText('-€1.00')).toHaveLength(2); // unit and amount
    expect(screen.getByTestId('order-net').textContent).toBe('€0.00');
    expect(screen.getByTestId('hold-rules').textContent).toBe('Orders from one address in 24 h: 21 (limit 20)');
    expect(screen.getByText('203.0.113.9')).toBeTruthy();
    expect(screen.getByText('NL')).toBeTruthy();
  });

  it('formats every amount as the buyer widget does', () => {
    for (const m of [
      { amount: 1299, currency: 'EUR' },
      { amount: 129900, currency: 'HUF' },
      { amount: 1500, currency: 'JPY' },
      { amount: 12345, currency: 'KWD' },
      { amount: 999, currency: 'XYZ' },
    ]) {
      expect(formatMoney(m)).toBe(widgetMoney(m, 'en'));
    }
  });
});
