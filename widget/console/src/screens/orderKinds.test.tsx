// An order's kind is worded in the operator's language wherever it shows: the orders list's Kind
// column, the kind filter and the order page (it showed the API's raw "plan", "renewal").
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { switchLocale, type LocaleCode } from '../messages';
import { FakeApi, order, orderDetail } from '../test/fakeApi';
import { renderConsole } from '../test/render';

afterEach(() => switchLocale('en'));

describe('order kinds', () => {
  it.each<[LocaleCode, string, string, string, string]>([
    ['en', 'Kind', 'Renewal', 'Reseller', 'Plan'],
    ['de-de', 'Art', 'Verlängerung', 'Wiederverkäufer', 'Paket'],
    ['es-es', 'Tipo', 'Renovación', 'Revendedor', 'Plan'],
  ])('%s: the list, the filter and the order page name the kind', async (code, column, renewal, reseller, plan) => {
    await switchLocale(code);
    const fake = new FakeApi('viewer')
      .on('GET', '/orders', () => ({
        orders: [order({ kind: 'renewal' }), order({ id: 'ord_2', kind: 'reseller' })],
        nextCursor: '',
        gateways: ['sandbox'],
      }))
      .on('GET', '/orders/:id', () => orderDetail(order({ kind: 'renewal' })));
    const { unmount } = await renderConsole(fake, '/checkout/admin/orders');
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    const col = headers.indexOf(column);
    expect(col).toBeGreaterThanOrEqual(0);
    const kinds = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell')[col]!.textContent);
    expect(kinds).toEqual([renewal, reseller]);
    const filter = screen.getByLabelText<HTMLSelectElement>(column);
    expect([...filter.options].map((o) => o.textContent)).toContain(plan);
    expect([...filter.options].map((o) => o.textContent)).not.toContain('plan');
    unmount();

    await renderConsole(fake, '/checkout/admin/orders/ord_1');
    const facts = await screen.findByTestId('order-facts');
    expect(within(facts).getByText(column).nextSibling!.textContent).toBe(renewal);
  });
});
