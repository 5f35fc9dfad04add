import { describe, expect, it } from 'vitest';
import { body } from '../test/api/fixtures';
import type { Order } from '../api/orders';
import { texts as enPlans } from '../i18n/en/plans';
import { texts as enOrder } from '../i18n/en/order';
import { texts as dePlans } from '../i18n/de-de/plans';
import { texts as deOrder } from '../i18n/de-de/order';
import { texts as esPlans } from '../i18n/es-es/plans';
import { texts as esOrder } from '../i18n/es-es/order';
import { texts as nlPlans } from '../i18n/nl-nl/plans';
import { texts as nlOrder } from '../i18n/nl-nl/order';
import { texts as ptPlans } from '../i18n/pt-pt/plans';
import { texts as ptOrder } from '../i18n/pt-pt/order';
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

  // A WHMCS renewal invoice's line ("Renewal — {service} ({due date})", whmcsorder/renew.go) and a
  // plan change charged now (planchange.go) come as English labels: worded from their parts (they
  // read "Renewal — Vierteljährlich" and the change in English on German pages).
  it('words a renewal and a plan change from their parts, in every language', () => {
    const q = { ...order().quote!, billingCycle: 'quarterly', extraConnections: 0 };
    const renewal = { key: 'plan', label: 'Renewal — Kitchen TV (2026-12-01)', amount: { amount: 6099, currency: 'EUR' } };
    const change = {
      key: 'change',
      label: 'Change of Standard to Premium, quarterly, 3 connections, until 2026-12-01',
      amount: { amount: 1234, currency: 'EUR' },
    };
    const day = (d: string) => `[${d}]`;
    const en = { ...enPlans, ...enOrder };
    const de = { ...dePlans, ...deOrder };
    expect(orderLineText(q, renewal, en, day)).toBe('Renewal of Kitchen TV, Quarterly, due [2026-12-01]');
    expect(orderLineText(q, renewal, de, day)).toBe('Verlängerung von Kitchen TV, Vierteljährlich, fällig am [2026-12-01]');
    expect(orderLineText(q, { ...renewal, label: 'Renewal — Kitchen TV' }, de, day)).toBe('Verlängerung von Kitchen TV, Vierteljährlich');
    expect(orderLineText(q, change, en, day)).toBe('Change of Standard to Premium, Quarterly, 3 connections, until [2026-12-01]');
    expect(orderLineText(q, change, de, day)).toBe('Wechsel von Standard zu Premium, Vierteljährlich, 3 Verbindungen, bis [2026-12-01]');
    for (const [plans, orders] of [
      [esPlans, esOrder],
      [nlPlans, nlOrder],
      [ptPlans, ptOrder],
    ] as const) {
      for (const line of [renewal, change]) {
        const text = orderLineText(q, line, { ...plans, ...orders }, day);
        expect(text).not.toMatch(/Renewal|Change of|connections|due|until/);
        expect(text).toContain(plans.cycles.quarterly);
      }
    }
  });

  it('says nothing of an order without a quote', () => {
    expect(orderItems({ ...order(), quote: undefined }, { ...enPlans, ...enOrder })).toBe('');
  });
});
