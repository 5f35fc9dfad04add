import { describe, expect, it } from 'vitest';
import { body } from '../test/api/fixtures';
import type { Order } from '../api/orders';
import { texts as enPlans } from '../i18n/en/plans';
import { texts as enOrder } from '../i18n/en/order';
import { texts as dePlans } from '../i18n/de-de/plans';
import { texts as deOrder } from '../i18n/de-de/order';
import { orderItems, orderLineText } from './orderLines';

const order = (): Order => {
  const o = body<Order>('order.get', '200.active');
  return {
    ...o,
    quote: {
      ...o.quote!,
      billingCycle: 'quarterly',
      extraConnections: 2,
      lines: [
        { key: 'plan', label: 'Premium — Quarterly', amount: { amount: 6099, currency: 'EUR' } },
        { key: 'extraConnections', label: '2 extra connections', amount: { amount: 1000, currency: 'EUR' } },
        { key: 'proxyProtection', label: 'Proxy protection', amount: { amount: 500, currency: 'EUR' } },
        { key: 'setupFee', label: 'Setup', amount: { amount: 100, currency: 'EUR' } },
      ],
    },
  };
};

// One translator for the receipt and "Orders and invoices": the same order reads the same in both.
describe("an order line in the buyer's words", () => {
  it('names the plan with its cycle, the extras and proxy protection; an unknown line as the server did', () => {
    const o = order();
    expect(orderItems(o, { ...enPlans, ...enOrder })).toBe('Premium — Quarterly, 2 extra connections, Proxy protection, Setup');
    expect(orderItems(o, { ...dePlans, ...deOrder })).toBe('Premium — Vierteljährlich, 2 zusätzliche Verbindungen, Proxy-Schutz, Setup');
  });

  it("keeps the server's label when the cycle or the count is not known", () => {
    const o = order();
    const q = { ...o.quote!, billingCycle: 'fortnightly', extraConnections: 0 };
    expect(orderLineText(q, q.lines[0]!, { ...enPlans, ...enOrder })).toBe('Premium — Quarterly');
    expect(orderLineText(q, q.lines[1]!, { ...enPlans, ...enOrder })).toBe('2 extra connections');
  });

  it('names a free trial alone, not as a one-time payment', () => {
    const o = order();
    const q = { ...o.quote!, billingCycle: 'onetime', extraConnections: 0 };
    const line = { key: 'plan', label: 'Free Trial — One-time', amount: { amount: 0, currency: 'EUR' } };
    expect(orderLineText(q, line, { ...enPlans, ...enOrder })).toBe('Free Trial');
    // A paid one-time plan keeps its cycle.
    expect(
      orderLineText(q, { ...line, label: 'Lifetime — One-time', amount: { amount: 9900, currency: 'EUR' } }, { ...dePlans, ...deOrder }),
    ).toBe(`Lifetime — ${dePlans.cycles.onetime}`);
  });

  it('says nothing of an order without a quote', () => {
    expect(orderItems({ ...order(), quote: undefined }, { ...enPlans, ...enOrder })).toBe('');
  });
});
