// An order's lines in the buyer's words, for every screen that shows a placed order (the receipt on
// the success page, "Orders and invoices"): the server's labels are English. Only those screens'
// chunks import it.
import type { Order } from '../api/orders';
import type { OrderTexts, PlansTexts } from '../i18n/messages';

type Quote = NonNullable<Order['quote']>;
type Line = Quote['lines'][number];

/** The words it takes: the cycles (every screen's) and the order area's extras and proxy. */
export type LineTexts = Pick<PlansTexts, 'cycles'> & Pick<OrderTexts, 'receiptExtra' | 'receiptProxy'>;

/** One line: the plan and its cycle, the extra connections, proxy protection; anything else as the server named it. */
export function orderLineText(q: Quote, line: Line, t: LineTexts): string {
  switch (line.key) {
    case 'plan': {
      const [name] = line.label.split(' — ');
      // A free one-time line is a trial: no "one-time payment" of nothing, its name alone.
      if (q.billingCycle === 'onetime' && line.amount.amount === 0) return name!;
      const cycle = (t.cycles as Record<string, string>)[q.billingCycle];
      return cycle ? `${name} — ${cycle}` : line.label;
    }
    case 'extraConnections':
      return q.extraConnections ? t.receiptExtra(q.extraConnections) : line.label;
    case 'proxyProtection':
      return t.receiptProxy;
    default:
      return line.label;
  }
}

/** What an order bought, on one line ("Premium — Quarterly, 2 extra connections, Proxy protection"). */
export function orderItems(o: Order, t: LineTexts): string {
  const q = o.quote;
  return q ? q.lines.map((l) => orderLineText(q, l, t)).join(', ') : '';
}
