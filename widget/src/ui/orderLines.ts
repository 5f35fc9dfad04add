// An order's lines in the buyer's words, for every screen that shows a placed order (the receipt on
// the success page, "Orders and invoices"): the server's labels are English. Only those screens'
// chunks import it.
import type { Order } from '../api/orders';
import type { OrderTexts, PlansTexts } from '../i18n/messages';

type Quote = NonNullable<Order['quote']>;
type Line = Quote['lines'][number];

/** The words it takes: the cycles (every screen's) and the order area's extras, proxy, renewal and change. */
export type LineTexts = Pick<PlansTexts, 'cycles'> & Pick<OrderTexts, 'receiptExtra' | 'receiptProxy' | 'receiptRenewal' | 'receiptChange'>;

/** A calendar day (YYYY-MM-DD) in the buyer's words; the day as written without one. */
type DayFormat = (day: string) => string;

// The English labels the server writes from parts (read back as api/console/items.go reads them
// for the console): a WHMCS renewal invoice's line (whmcsorder/renew.go: "Renewal — {service}" and
// its due date) and a plan change charged now (planchange.go).
const RENEWAL = /^Renewal — (.+?)(?: \((\d{4}-\d{2}-\d{2})\))?$/;
const CHANGE = /^Change of (.+) to (.+), ([a-z]+), (\d+) connections, until (\d{4}-\d{2}-\d{2})$/;

/** One line: the plan and its cycle, the extra connections, proxy protection; anything else as the server named it. */
export function orderLineText(q: Quote, line: Line, t: LineTexts, day: DayFormat = (d) => d): string {
  const cycles = t.cycles as Record<string, string>;
  switch (line.key) {
    case 'plan': {
      const renewal = RENEWAL.exec(line.label);
      if (renewal) return t.receiptRenewal(renewal[1]!, cycles[q.billingCycle] ?? '', renewal[2] ? day(renewal[2]) : '');
      const [name] = line.label.split(' — ');
      // A free one-time line is a trial: no "one-time payment" of nothing, its name alone.
      if (q.billingCycle === 'onetime' && line.amount.amount === 0) return name!;
      const cycle = cycles[q.billingCycle];
      return cycle ? `${name} — ${cycle}` : line.label;
    }
    case 'extraConnections':
      return q.extraConnections ? t.receiptExtra(q.extraConnections) : line.label;
    case 'proxyProtection':
      return t.receiptProxy;
    case 'change': {
      const m = CHANGE.exec(line.label);
      return m ? t.receiptChange(m[1]!, m[2]!, cycles[m[3]!] ?? '', Number(m[4]), day(m[5]!)) : line.label;
    }
    default:
      return line.label;
  }
}

/** What an order bought, on one line ("Premium — Quarterly, 2 extra connections, Proxy protection"). */
export function orderItems(o: Order, t: LineTexts, day?: DayFormat): string {
  const q = o.quote;
  return q ? q.lines.map((l) => orderLineText(q, l, t, day)).join(', ') : '';
}
