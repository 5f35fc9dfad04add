// One order (GET /admin/orders/{id}): what it sold and billed (items summing to its total), what
// went back and what it kept (refunded, net), why it was held, its lines, its refunds and its
// timeline; and the actions on it: approve or reject a held order, refund in full or in part,
// each asked in a dialog that states its effect.
import { useState } from 'react';
import { useConsole } from '../context';
import { formatMoney, formatTime, orderKind } from '../format';
import { t } from '../messages';
import { ApproveButton } from '../money/ApproveButton';
import { RefundForm } from '../money/RefundForm';
import { href, Link } from '../router';
import type { Hold, OrderDetail as Detail, Refund } from '../schemas';
import { ConfirmButton, ErrorNote, Field, Loading, Outcome, Status, Table, useAction, useLoad } from '../ui';
import { LinesTable } from '../ui/LinesTable';
import { itemText } from '../ui/serverText';
import { timelineText } from '../ui/timeline';

// version changes after each refund made on the page, so the list shows it.
function Refunds({ id, version, taxed }: { id: string; version: number; taxed: boolean }) {
  const { api } = useConsole();
  const refunds = useLoad(() => api.orders.refunds(id), `${id}:${version}`);
  return (
    <section aria-labelledby="refunds-h">
      <h2 id="refunds-h">{t.refundsHeading}</h2>
      <Loading what={refunds} />
      {refunds.data && (
        <Table
          caption={t.refundsHeading}
          hideCaption
          rows={refunds.data.refunds}
          rowKey={(r) => r.createdAt + r.reference}
          columns={[
            { header: t.colWhen, cell: (r) => formatTime(r.createdAt) },
            { header: t.colAmount, cell: (r) => formatMoney(r.amount), numeric: true },
            ...(taxed ? [{ header: t.colTax, cell: (r: Refund) => (r.tax ? formatMoney(r.tax) : '—'), numeric: true }] : []),
            { header: t.colMethod, cell: (r) => r.method },
            { header: t.colReference, cell: (r) => r.reference || '—' },
            { header: t.colReason, cell: (r) => r.reason },
            { header: t.colNote, cell: (r) => r.note || '—' },
            { header: t.colOperator, cell: (r) => r.operator },
          ]}
        />
      )}
    </section>
  );
}

function Items({ d }: { d: Detail }) {
  return (
    <section aria-labelledby="items-h">
      <h2 id="items-h">{t.itemsHeading}</h2>
      <Table
        caption={t.itemsCaption}
        hideCaption
        rows={d.items}
        rowKey={(it) => it.kind + it.description}
        columns={[
          { header: t.colKind, cell: (it) => t.itemKinds[it.kind] ?? it.kind },
          { header: t.colDescription, cell: (it) => itemText(it) },
          { header: t.colQuantity, cell: (it) => it.quantity, numeric: true },
          { header: t.colUnit, cell: (it) => formatMoney(it.unitAmount), numeric: true },
          { header: t.colAmount, cell: (it) => formatMoney(it.amount), numeric: true },
        ]}
      />
    </section>
  );
}

function HoldFacts({ hold }: { hold: Hold }) {
  return (
    <>
      <h3>{t.holdHeading}</h3>
      {hold.rules.length ? (
        <ul data-testid="hold-rules">
          {hold.rules.map((r) => (
            <li key={r.rule}>{t.holdRule(t.holdRules[r.rule] ?? r.rule, r.value, r.limit)}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t.holdNoRules}</p>
      )}
      <dl className="facts">
        <dt>{t.holdIp}</dt>
        <dd>{hold.ip || '—'}</dd>
        <dt>{t.holdCountry}</dt>
        <dd>{hold.country || t.unknownCountry}</dd>
        <dt>{t.holdOrdersFromIp}</dt>
        <dd>{hold.ordersFromIp}</dd>
      </dl>
    </>
  );
}

export function OrderDetail({ id }: { id: string }) {
  const { api, can } = useConsole();
  const detail = useLoad(() => api.orders.get(id), id);
  const action = useAction(detail.reload);
  const [reason, setReason] = useState('');
  const [refunded, setRefunded] = useState(0);
  const d = detail.data;
  if (!d) return <Loading what={detail} />;
  const o = d.order;
  const held = o.status === 'fraud';
  const paid = o.invoiceStatus === 'paid' || o.status.includes('refunded');
  return (
    <>
      <ErrorNote error={detail.error} />
      <dl className="facts" data-testid="order-facts">
        <dt>{t.colStatus}</dt>
        <dd>
          <Status value={o.status} />
        </dd>
        <dt>{t.colEmail}</dt>
        <dd>{o.customerId ? <Link href={href(`customers/${encodeURIComponent(o.customerId)}`)}>{o.email}</Link> : o.email}</dd>
        <dt>{t.colKind}</dt>
        <dd>{orderKind(d.kind)}</dd>
        <dt>{t.colProduct}</dt>
        <dd>{o.product || '—'}</dd>
        {d.tax && d.beforeTax && (
          <>
            <dt>{t.colBeforeTax}</dt>
            <dd data-testid="order-before-tax">{formatMoney(d.beforeTax)}</dd>
            <dt>{t.taxLine(d.tax.rate, d.tax.country, d.tax.pricesIncludeTax)}</dt>
            <dd data-testid="order-tax">{formatMoney(d.tax.amount)}</dd>
          </>
        )}
        <dt>{t.colTotal}</dt>
        <dd>{formatMoney(o.total)}</dd>
        <dt>{t.colRefunded}</dt>
        <dd data-testid="order-refunded">{formatMoney(d.refunded)}</dd>
        <dt>{t.colNet}</dt>
        <dd data-testid="order-net">{formatMoney(d.net)}</dd>
        <dt>{t.colGateway}</dt>
        <dd>{o.gateway}</dd>
        <dt>{t.colInvoice}</dt>
        <dd>
          {o.invoiceId} <Status value={o.invoiceStatus} />
        </dd>
        <dt>{t.colPromo}</dt>
        <dd>{o.promoCode || '—'}</dd>
        <dt>{t.colCreated}</dt>
        <dd>{formatTime(o.createdAt)}</dd>
        <dt>{t.colPaid}</dt>
        <dd>{formatTime(o.paidAt)}</dd>
      </dl>
      {held && (
        <section className="card" aria-labelledby="held-h">
          <h2 id="held-h">{t.heldHeading}</h2>
          {d.hold && <HoldFacts hold={d.hold} />}
          {!can('requestPayment') && <p className="note note-forbidden">{t.roleCannot}</p>}
          <Field label={t.rejectReasonLabel}>
            {(fid) => <input id={fid} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />}
          </Field>
          <span className="actions">
            <ApproveButton
              order={o}
              primary
              onDone={(text) => {
                void action.run(() => Promise.resolve(text));
              }}
            />
            <ConfirmButton
              label={t.reject}
              confirmLabel={t.confirmReject}
              disabled={!can('reject') || action.busy}
              onConfirm={() =>
                action.run(async () => {
                  await api.orders.reject(o.id, reason);
                  return t.rejected(o.id);
                })
              }
            />
          </span>
        </section>
      )}
      {!held && d.hold && (
        <section className="card" aria-labelledby="hold-h">
          <h2 id="hold-h">{t.heldHeading}</h2>
          <HoldFacts hold={d.hold} />
        </section>
      )}
      <Outcome result={action.result} />
      <Items d={d} />
      <section aria-labelledby="lines-h">
        <h2 id="lines-h">{t.linesHeading}</h2>
        <LinesTable lines={d.lines} onChanged={detail.reload} />
      </section>
      {paid && <Refunds id={o.id} version={refunded} taxed={!!d.tax} />}
      {paid && can('refund') && o.status !== 'refunded' && (
        <RefundForm
          order={o}
          onDone={(text) => {
            setRefunded((n) => n + 1);
            void action.run(() => Promise.resolve(text));
          }}
        />
      )}
      <section aria-labelledby="timeline-h">
        <h2 id="timeline-h">{t.timelineHeading}</h2>
        <ol className="timeline" data-testid="timeline">
          {d.timeline.map((e, i) => (
            <li key={i}>
              <time dateTime={e.at}>{formatTime(e.at)}</time>{' '}
              <span className="kind">{(t.timelineKinds as Record<string, string>)[e.kind] ?? e.kind}</span> <span>{timelineText(e)}</span>
              {e.outcome && (
                <>
                  {' '}
                  <Status value={e.outcome} />
                </>
              )}
              {e.detail && <div className="detail">{e.detail}</div>}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
