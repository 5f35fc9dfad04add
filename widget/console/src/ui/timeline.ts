// An order's timeline event in the operator's language: the server sends an English summary and its
// parts (args, by kind: the design's AdminTimelineEvent), which are worded here with the console's
// tables, amounts formatted as everywhere in the console. An event whose parts are not the expected
// ones (a newer server's kind) shows the server's summary.
import { formatMoney, orderKind } from '../format';
import { t } from '../messages';
import type { OrderDetail } from '../schemas';

/** jobKindName is a job's kind in the console's language; a kind the table does not know stays as it is. */
export const jobKindName = (kind: string): string => t.jobKinds[kind] ?? kind;

type TimelineEvent = OrderDetail['timeline'][number];

const money = (amount: string, currency: string) =>
  /^-?\d+$/.test(amount) && /^[A-Z]{3}$/.test(currency) ? formatMoney({ amount: Number(amount), currency }) : `${amount} ${currency}`;

/** timelineText words e in the console's language. */
export function timelineText(e: TimelineEvent): string {
  const w = t.timelineText;
  const a = e.args;
  const n = (count: number) => a.length === count;
  switch (e.kind) {
    case 'created':
      if (n(2)) return w.created(orderKind(a[0]!), a[1]!);
      break;
    case 'invoice':
      if (n(4)) return w.invoice(a[0]!, money(a[1]!, a[2]!), a[3]!);
      break;
    case 'payment':
      if (n(0)) return w.payment();
      break;
    case 'review':
      if (n(5)) return w.review(money(a[0]!, a[1]!), money(a[2]!, a[3]!), a[4]!);
      break;
    case 'webhook':
      if (n(2)) return w.webhook(a[0]!, a[1]!);
      break;
    case 'job':
      if (n(3)) return w.job(jobKindName(a[0]!), a[0]!, a[1]!, Number(a[2]));
      break;
    case 'mail':
      if (n(2)) return w.mail(a[0]!, a[1]!);
      break;
    case 'audit':
      if (n(3)) return w.audit(a[0]!, a[1]!, a[2] || w.theCustomer);
      break;
  }
  return e.summary;
}
