// Payments to review (GET /admin/payments?state=): money that arrived but could not settle its
// order. The owner refunds each in full (through the provider, or by hand with a reference for
// crypto) or accepts it as payment of its order; both ask for confirmation.
import { useState } from 'react';
import { useConsole } from '../context';
import { formatMoney, formatTime } from '../format';
import { t } from '../messages';
import { href, Link, navigate, useRoute } from '../router';
import type { Payment } from '../schemas';
import { ConfirmButton, Loading, Outcome, Status, Table, useAction, useLoad } from '../ui';
import { paymentReason } from '../ui/serverText';

const STATES = ['review', 'refunded', 'accepted'] as const;

const money = (p: Payment) => formatMoney({ amount: p.amount, currency: p.currency });

function PaymentActions({ p, action }: { p: Payment; action: ReturnType<typeof useAction> }) {
  const { api, can } = useConsole();
  const [reference, setReference] = useState('');
  const [bad, setBad] = useState('');
  const allowed = can('refund') && !action.busy;
  return (
    <span className="actions">
      {!p.refundable && (
        <span className="field">
          <label htmlFor={`ref-${p.id}`}>{t.referenceLabel}</label>
          <input
            id={`ref-${p.id}`}
            maxLength={200}
            value={reference}
            title={t.referenceHint}
            onChange={(e) => setReference(e.target.value)}
          />
        </span>
      )}
      <ConfirmButton
        label={t.refundPayment}
        confirmLabel={t.confirmRefundPayment(money(p))}
        disabled={!allowed}
        onConfirm={() => {
          setBad('');
          if (!p.refundable && !reference.trim()) return setBad(t.referenceRequired);
          void action.run(async () => {
            await api.payments.refund(p.id, p.refundable ? undefined : reference.trim());
            return t.paymentRefunded(money(p));
          });
        }}
      />
      <ConfirmButton
        label={t.acceptPayment}
        confirmLabel={t.confirmAcceptPayment(money(p), formatMoney(p.expected))}
        danger={false}
        disabled={!allowed}
        onConfirm={() =>
          action.run(async () => {
            await api.payments.accept(p.id);
            return t.paymentAccepted(p.orderId);
          })
        }
      />
      {bad && (
        <span role="alert" className="note note-error">
          {bad}
        </span>
      )}
    </span>
  );
}

export function Payments() {
  const { api, can } = useConsole();
  const state = useRoute().query.get('state') || 'review';
  const list = useLoad(() => api.payments.list(state), state);
  const action = useAction(list.reload);
  return (
    <>
      <p>{t.paymentsIntro}</p>
      {!can('refund') && <p className="note note-forbidden">{t.roleCannot}</p>}
      <div className="toolbar">
        <label htmlFor="payment-state">{t.paymentStateLabel}</label>
        <select id="payment-state" value={state} onChange={(e) => navigate(href('payments', { state: e.target.value }))}>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {t.paymentStates[s]}
            </option>
          ))}
        </select>
      </div>
      <Outcome result={action.result} />
      <Loading what={list} />
      {list.data && (
        <Table
          caption={t.paymentsCaption}
          hideCaption
          rows={list.data.payments}
          rowKey={(p) => p.id}
          columns={[
            { header: t.colWhen, cell: (p) => formatTime(p.createdAt) },
            { header: t.colOrder, cell: (p) => <Link href={href(`orders/${encodeURIComponent(p.orderId)}`)}>{p.orderId}</Link> },
            { header: t.colProvider, cell: (p) => p.provider },
            { header: t.colAmount, cell: money, numeric: true },
            { header: t.colExpected, cell: (p) => formatMoney(p.expected), numeric: true },
            { header: t.colReason, cell: (p) => paymentReason(p.reason) },
            { header: t.colState, cell: (p) => <Status value={p.state} /> },
            { header: t.colReference, cell: (p) => p.refundId || p.reference || p.refundError || '—' },
            { header: t.colActions, cell: (p) => (p.state === 'review' ? <PaymentActions p={p} action={action} /> : p.decidedBy || '—') },
          ]}
        />
      )}
    </>
  );
}
