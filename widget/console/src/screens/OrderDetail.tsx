// One order (GET /admin/orders/{id}): its facts, its lines, its refunds, its timeline, and the
// owner's actions: approve or reject a held order, refund in full or in part.
import { useState, type FormEvent } from 'react';
import { useConsole } from '../context';
import { formatMoney, formatTime, parseAmount } from '../format';
import { t } from '../messages';
import { href, Link } from '../router';
import type { Order } from '../schemas';
import { ConfirmButton, ErrorNote, Field, Loading, Outcome, Status, Table, useAction, useLoad } from '../ui';
import { LinesTable } from './Lines';

/** What a full refund takes back unless kept: a renewal's period, an upsell's connections, a reseller plan's credits, else the order's lines. */
function keepLabel(kind: string): string {
  if (kind === 'renewal') return t.keepRenewalLabel;
  if (kind === 'upsell') return t.keepUpsellLabel;
  if (kind === 'reseller') return t.keepResellerLabel;
  return t.keepLineLabel;
}

function RefundForm({ order, onDone }: { order: Order; onDone: () => void }) {
  const { api } = useConsole();
  const action = useAction(onDone);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [keepLine, setKeepLine] = useState(false);
  const [bad, setBad] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setBad('');
    let minor: number | undefined;
    if (amount.trim()) {
      const n = parseAmount(amount, order.total.currency);
      if (n === null || n <= 0) return setBad(t.badAmount);
      minor = n;
    }
    if (!reason.trim()) return setBad(t.reasonRequired);
    void action.run(async () => {
      const r = await api.orders.refund(order.id, { amount: minor, reason: reason.trim(), keepLine });
      return t.refundedText(formatMoney(r.refund.amount), formatMoney(r.refunded));
    });
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="refund-h" data-testid="refund-form">
      <h2 id="refund-h">{t.refundHeading}</h2>
      <Field label={t.refundAmountLabel(order.total.currency)} hint={t.refundAmountHint}>
        {(id, hint) => (
          <input id={id} aria-describedby={hint} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        )}
      </Field>
      <Field label={t.reasonLabel}>
        {(id) => <input id={id} required maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />}
      </Field>
      <div className="check">
        <input id="keep-line" type="checkbox" checked={keepLine} onChange={(e) => setKeepLine(e.target.checked)} />
        <label htmlFor="keep-line">{keepLabel(order.kind)}</label>
      </div>
      {bad && (
        <p role="alert" className="note note-error">
          {bad}
        </p>
      )}
      <Outcome result={action.result} />
      <button type="submit" className="danger" disabled={action.busy}>
        {t.refundButton}
      </button>
    </form>
  );
}

// version changes after each refund made on the page, so the list shows it.
function Refunds({ id, version }: { id: string; version: number }) {
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
        <dd>{o.kind}</dd>
        <dt>{t.colTotal}</dt>
        <dd>{formatMoney(o.total)}</dd>
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
          {!can('approve') && <p className="note note-forbidden">{t.roleCannot}</p>}
          <Field label={t.rejectReasonLabel}>
            {(fid) => <input id={fid} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />}
          </Field>
          <span className="actions">
            <button
              type="button"
              className="primary"
              disabled={!can('approve') || action.busy}
              onClick={() =>
                action.run(async () => {
                  await api.orders.approve(o.id);
                  return t.approved(o.id);
                })
              }
            >
              {t.approve}
            </button>
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
      <Outcome result={action.result} />
      <section aria-labelledby="lines-h">
        <h2 id="lines-h">{t.linesHeading}</h2>
        <LinesTable lines={d.lines} onChanged={detail.reload} />
      </section>
      {paid && <Refunds id={o.id} version={refunded} />}
      {paid && can('refund') && o.status !== 'refunded' && (
        <RefundForm
          order={o}
          onDone={() => {
            setRefunded((n) => n + 1);
            detail.reload();
          }}
        />
      )}
      <section aria-labelledby="timeline-h">
        <h2 id="timeline-h">{t.timelineHeading}</h2>
        <ol className="timeline" data-testid="timeline">
          {d.timeline.map((e, i) => (
            <li key={i}>
              <time dateTime={e.at}>{formatTime(e.at)}</time>{' '}
              <span className="kind">{(t.timelineKinds as Record<string, string>)[e.kind] ?? e.kind}</span> <span>{e.summary}</span>
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
