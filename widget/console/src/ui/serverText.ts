// Texts the server makes in English — an order item's description, an audit entry's detail — in
// the operator's language: the server sends their parts, the wording first (the design's
// AdminOrderItem.args and AdminAuditEntry.args), worded here with the console's tables; amounts
// and dates formatted as everywhere in the console. A plan's or a line's name is the seller's own
// text and stays as written. Parts that are not the expected ones (a newer server's wording, an
// older server without them) show the server's text.
import { formatDay, formatMoney, formatTime } from '../format';
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

const money = (amount: string, currency: string) =>
  /^-?\d+$/.test(amount) && /^[A-Z]{3}$/.test(currency) ? formatMoney({ amount: Number(amount), currency }) : `${amount} ${currency}`;
const word = (table: object, k: string) => (table as Record<string, string>)[k] ?? k;
const time = (s: string) => (/^\d{4}-\d{2}-\d{2}T/.test(s) ? formatTime(s) : day(s));

/** driftValue is a line drift's value (the panel's or the shop's) in the console's language: our words translated, a date-time formatted, a number or a MAC as it is. */
export function driftValue(v: string): string {
  return time(word(t.auditText.driftValues, v));
}

/** paymentReason is why a payment is to review (short, over, currency, …) in the console's language; a reason this console does not know shows as its code. */
export function paymentReason(reason: string): string {
  return word(t.auditText.paymentReasons, reason);
}

/** auditAction is an audit entry's action in the console's language; an action this console does not know shows as its code. */
export function auditAction(action: string): string {
  return word(t.auditActions, action);
}

/** lineChange words an operator's change of a line (audit.WordLineChange's 15 parts). */
function lineChange(a: string[]): string | undefined {
  const w = t.auditText;
  const [charge, reason, planFrom, planTo, cycleFrom, cycleTo, connFrom, connTo, dueFrom, dueTo, now, rec, newRec, currency, days] = a as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if ([connFrom, connTo, days].some((v) => Number.isNaN(count(v)))) return undefined;
  const what: string[] = [];
  if (planFrom !== planTo) what.push(w.changePlan(planFrom, planTo));
  if (cycleFrom !== cycleTo) what.push(w.changeCycle(cycleName(cycleFrom), cycleName(cycleTo)));
  if (connFrom !== connTo) what.push(w.changeConnections(count(connFrom), count(connTo)));
  if (dueFrom !== dueTo) what.push(w.changeDue(day(dueFrom), day(dueTo)));
  if (charge === 'now') what.push(w.changePayNow(money(now, currency), count(days)));
  if (rec !== newRec) what.push(w.changeRecurring(money(rec, currency), money(newRec, currency)));
  return w.lineChange(word(w.charges, charge), what.join(', '), reason);
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
    case 'line-change':
      if (n(15)) return lineChange(a) ?? e.detail;
      break;
    case 'change-applied':
      if (n(2)) return w.changeApplied(a[0]!, a[1]!);
      break;
    case 'payment-refund':
      if (n(6))
        return w.paymentRefund(
          a[0]!,
          money(a[1]!, a[2]!),
          word(w.paymentReasons, a[3]!),
          a[4] === 'hand' ? w.byHandRef(a[5]!) : `${a[4]} ${a[5]}`,
        );
      break;
    case 'payment-accept':
      if (n(6)) return w.paymentAccept(a[0]!, money(a[1]!, a[2]!), money(a[3]!, a[4]!), word(w.paymentReasons, a[5]!));
      break;
    case 'reject-refund':
      if (n(4) && (a[1] === 'refunded' || a[1] === 'to-refund-by-hand'))
        return (a[1] === 'refunded' ? w.rejectRefunded : w.rejectToRefundByHand)(a[0]!, money(a[2]!, a[3]!));
      break;
    case 'upsell':
      if (n(3) && !Number.isNaN(count(a[1]!)) && !Number.isNaN(count(a[2]!))) return w.upsell(a[0]!, count(a[1]!), count(a[2]!));
      break;
    case 'reseller-credit':
      if (n(3) && /^-?\d+$/.test(a[1]!) && /^-?\d+$/.test(a[2]!)) return w.resellerCredit(a[0]!, Number(a[1]), Number(a[2]));
      break;
    case 'line-drift':
      if (n(3)) {
        const action = a[2] === 'none' ? w.driftNothing : a[2] === 'failed' ? w.driftFailed : word(t.driftActions, a[2]!);
        return w.lineDrift(driftValue(a[0]!), driftValue(a[1]!), action);
      }
      break;
    case 'job':
      if (n(2)) return w.job(word(t.jobKinds, a[0]!), a[1]!);
      break;
  }
  return e.detail;
}
