// The dashboard (GET /admin/summary): counts over the chosen days, the alerts worth a look now
// (each a link to the list that shows them), and the revenue per day, net of refunds, as a chart
// with axes and the hovered day's amounts (ui/RevenueChart.tsx, uPlot).
import { useState } from 'react';
import { useConsole } from '../context';
import { formatMoney, formatNumber, formatPercent } from '../format';
import { t } from '../messages';
import { href, Link } from '../router';
import type { Money, Summary } from '../schemas';
import { Loading, useLoad } from '../ui';
import { RevenueChart } from '../ui/RevenueChart';

const RANGES = [7, 30, 90] as const;

/** amounts shows one amount per currency; none: zero in the shop's usual currency. */
function amounts(list: Money[]): string {
  return list.length ? list.map(formatMoney).join(', ') : formatMoney({ amount: 0, currency: 'EUR' });
}

function counts(s: Summary): [string, string | number][] {
  return [
    [t.summaryOrders, formatNumber(s.orders)],
    [t.summaryRevenue, amounts(s.netRevenue)],
    [t.summaryPaid, amounts(s.paidRevenue)],
    [t.summaryRefunded, amounts(s.refundedRevenue)],
    [t.summaryNewCustomers, s.newCustomers],
    [t.summaryFailedPayments, s.failedPayments],
    [t.summaryActiveLines, s.activeLines],
    [t.summaryRenewalsDue, s.renewalsDue7d],
  ];
}

/** figures are the subscription business at a glance: MRR, churn, what renews soon, what went back. */
function figures(s: Summary): [string, string | number][] {
  return [
    [t.figureMrr, formatMoney(s.mrr)],
    [t.figureActiveSubscriptions, formatNumber(s.activeSubscriptions)],
    [t.figureChurn, formatPercent(s.churn30d)],
    [t.figureDue7, t.countAndAmount(s.renewalsDue.days7.count, formatMoney(s.renewalsDue.days7.amount))],
    [t.figureDue30, t.countAndAmount(s.renewalsDue.days30.count, formatMoney(s.renewalsDue.days30.amount))],
    [t.figureFailedRenewals, s.failedRenewals],
    [t.figureRefunds, t.countAndAmount(s.refunds.count, formatMoney(s.refunds.amount))],
  ];
}

function alerts(s: Summary): { n: number; text: string; to: string }[] {
  return [
    { n: s.paidNotActive, text: t.alertPaidNotActive(s.paidNotActive), to: href('orders', { status: 'paid' }) },
    { n: s.heldOrders, text: t.alertHeld(s.heldOrders), to: href('held') },
    { n: s.deadJobs, text: t.alertDeadJobs(s.deadJobs), to: href('jobs', { state: 'dead' }) },
    { n: s.failedJobs, text: t.alertFailedJobs(s.failedJobs), to: href('jobs', { state: 'failed' }) },
    { n: s.moneyToReview, text: t.alertMoneyToReview(s.moneyToReview), to: href('payments') },
    { n: s.failedMails, text: t.alertFailedMail(s.failedMails), to: href('mail', { status: 'failed' }) },
    { n: s.storedMails, text: t.alertStoredMail(s.storedMails), to: href('mail', { status: 'stored' }) },
  ].filter((a) => a.n > 0);
}

export function Dashboard() {
  const { api } = useConsole();
  const [days, setDays] = useState<number>(30);
  const summary = useLoad(() => api.summary(days), String(days));
  const s = summary.data;
  const currencies = s
    ? [...new Set(s.series.flatMap((d) => d.netRevenue.map((m) => m.currency)).concat(s.netRevenue.map((m) => m.currency)))]
    : [];
  const [chosen, setChosen] = useState('');
  const currency = currencies.includes(chosen) ? chosen : (currencies[0] ?? 'EUR');

  return (
    <>
      <div className="toolbar">
        <label htmlFor="dash-days">{t.rangeLabel}</label>
        <select id="dash-days" value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {RANGES.map((d) => (
            <option key={d} value={d}>
              {t.lastDays(d)}
            </option>
          ))}
        </select>
      </div>
      <Loading what={summary} />
      {s && (
        <>
          <section aria-labelledby="alerts-h">
            <h2 id="alerts-h">{t.alertsHeading}</h2>
            {alerts(s).length === 0 ? (
              <p className="muted" data-testid="no-alerts">
                {t.noAlerts}
              </p>
            ) : (
              <ul className="alerts" data-testid="alerts">
                {alerts(s).map((a) => (
                  <li key={a.to}>
                    <Link href={a.to}>{a.text}</Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="figures-h">
            <h2 id="figures-h">{t.subscriptionsHeading}</h2>
            <dl className="counts" data-testid="figures">
              {figures(s).map(([k, val]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{val}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section aria-labelledby="counts-h">
            <h2 id="counts-h">{t.countsHeading(days)}</h2>
            <dl className="counts" data-testid="counts">
              {counts(s).map(([k, val]) => (
                <div key={k}>
                  <dt>{k}</dt>
                  <dd>{val}</dd>
                </div>
              ))}
            </dl>
          </section>
          <section aria-labelledby="chart-h">
            <h2 id="chart-h">{t.revenueHeading}</h2>
            {currencies.length > 1 && (
              <div className="toolbar">
                <label htmlFor="dash-currency">{t.currencyLabel}</label>
                <select id="dash-currency" value={currency} onChange={(e) => setChosen(e.target.value)}>
                  {currencies.map((c) => (
                    <option key={c}>{c}</option>
                  ))}
                </select>
              </div>
            )}
            <RevenueChart series={s.series} currency={currency} />
          </section>
        </>
      )}
    </>
  );
}
