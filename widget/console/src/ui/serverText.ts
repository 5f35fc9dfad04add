// Texts the server makes in English — an order item's description, an audit entry's detail — in
// the operator's language: the server sends their parts, the wording first (the design's
// AdminOrderItem.args and AdminAuditEntry.args), worded here with the console's tables; amounts
// and dates formatted as everywhere in the console. A plan's or a line's name is the seller's own
// text and stays as written. Parts that are not the expected ones (a newer server's wording, an
// older server without them) show the server's text.
import { formatDay, formatMoney } from '../format';
import { t } from '../messages';
import type { AuditEntry, OrderItem } from '../schemas';

const cycleName = (c: string) => t.cycleNames[c] ?? c;
const count = (s: string) => (/^\d+$/.test(s) ? Number(s) : NaN);
const day = (s: string) => (/^\d{4}-\d{2}-\d{2}$/.test(s) ? formatDay(s) : s);

/** itemText is an order item's description in the console's language. */
export function itemText(it: Pick<OrderItem, 'description' | 'args'>): string {
  const w = t.itemText;
  const [wording, ...a] = it.args;
  const n = (k: number) => a.length === k;
  switch (wording) {
    case 'plan':
      if (n(2)) return w.plan(a[0]!, cycleName(a[1]!));
      break;
    case 'extra':
      if ((n(1) || n(2)) && !Number.isNaN(count(a[0]!))) return n(1) ? w.extra(count(a[0]!)) : w.extraOn(count(a[0]!), a[1]!);
      break;
    case 'proxy':
      if (n(0)) return w.proxy;
      break;
    case 'promotion':
      if (n(1)) return w.promotion(a[0]!);
      break;
    case 'tax':
      if (n(2)) return w.tax(a[0]!, a[1]!);
      break;
    case 'adjustment':
      if (n(0)) return w.adjustment;
      break;
    case 'change':
      if (n(5) && !Number.isNaN(count(a[3]!))) return w.change(a[0]!, a[1]!, cycleName(a[2]!), count(a[3]!), day(a[4]!));
      break;
    case 'renewal':
      if (n(1)) return w.renewal(a[0]!);
      if (n(2)) return w.renewalDue(a[0]!, day(a[1]!));
      break;
  }
  return it.description;
}

/** auditDetail is an audit entry's detail in the console's language. */
export function auditDetail(e: Pick<AuditEntry, 'detail' | 'args'>): string {
  const w = t.auditText;
  const [wording, ...a] = e.args;
  const n = (k: number) => a.length === k;
  switch (wording) {
    case 'payment-requested':
      if (n(0)) return w.paymentRequested;
      break;
    case 'provisioned-unpaid':
      if (n(0)) return w.provisionedUnpaid;
      break;
    case 'refund':
      if (n(5) && /^-?\d+$/.test(a[0]!) && /^[A-Z]{3}$/.test(a[1]!)) {
        const amount = formatMoney({ amount: Number(a[0]), currency: a[1]! });
        const method = a[2] === 'hand' ? w.byHand : a[2]!;
        return (a[4] === 'replayed' ? w.refundReplayed : w.refund)(amount, method, a[3]!);
      }
      break;
    case 'version':
      if (n(2)) return w.version(a[0]!, a[1]!);
      break;
    case 'sessions':
      if (n(1) && !Number.isNaN(count(a[0]!))) return w.sessions(count(a[0]!));
      break;
    case 'signin-failed':
      if (n(1)) return (w.signInFailed as Record<string, string>)[a[0]!] ?? a[0]!;
      break;
  }
  return e.detail;
}
