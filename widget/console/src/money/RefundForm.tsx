// RefundForm gives money back on a paid order: the form says how much and why, a dialog says what
// will happen (the amount, the gateway, what becomes of the lines) before anything is sent. Each
// dialog sends one Idempotency-Key, so a double submission refunds once. After a refund the form
// is empty again.
import { useState, type FormEvent } from 'react';
import { useConsole } from '../context';
import { formatMoney, parseAmount } from '../format';
import { t } from '../messages';
import type { Money, Order } from '../schemas';
import { ErrorNote, Field, Outcome, useAction } from '../ui';
import { ConfirmDialog, newIdempotencyKey } from '../ui/Dialog';

/** What a full refund takes back unless kept: a renewal's period, an upsell's connections, a reseller plan's credits, else the order's lines. */
function keepLabel(kind: string): string {
  if (kind === 'renewal') return t.keepRenewalLabel;
  if (kind === 'upsell') return t.keepUpsellLabel;
  if (kind === 'reseller') return t.keepResellerLabel;
  return t.keepLineLabel;
}

/** Gateways that refund through their API (api/refund): the others' refunds are paid by hand. */
const REFUNDS_BY_API = new Set(['stripe', 'sandbox']);

interface Asked {
  amount?: number;
  reason: string;
  keepLine: boolean;
  key: string;
}

export function RefundForm({ order, onDone }: { order: Order; onDone: (text: string) => void }) {
  const { api } = useConsole();
  const action = useAction();
  const [outcome, setOutcome] = useState<{ ok: string } | null>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [keepLine, setKeepLine] = useState(false);
  const [bad, setBad] = useState('');
  const [asked, setAsked] = useState<Asked | null>(null);
  const left: Money = { amount: order.total.amount - order.refunded.amount, currency: order.total.currency };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setBad('');
    setOutcome(null);
    let minor: number | undefined;
    if (amount.trim()) {
      const n = parseAmount(amount, order.total.currency);
      if (n === null || n <= 0) return setBad(t.badAmount);
      if (n > left.amount) return setBad(t.refundTooMuch(formatMoney(left)));
      minor = n;
    }
    if (!reason.trim()) return setBad(t.reasonRequired);
    action.clear();
    setAsked({ amount: minor, reason: reason.trim(), keepLine, key: newIdempotencyKey() });
  };

  const confirm = () => {
    if (!asked) return;
    void action.run(async () => {
      const r = await api.orders.refund(order.id, { amount: asked.amount, reason: asked.reason, keepLine: asked.keepLine }, asked.key);
      const text = r.replayed
        ? t.refundReplayed(formatMoney(r.refund.amount))
        : t.refundedText(formatMoney(r.refund.amount), formatMoney(r.refunded));
      setAsked(null);
      setAmount('');
      setReason('');
      setKeepLine(false);
      setOutcome({ ok: text });
      onDone(text);
      return text;
    });
  };

  const giving: Money = asked?.amount ? { amount: asked.amount, currency: order.total.currency } : left;
  const full = giving.amount >= left.amount;
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
      <Outcome result={outcome} />
      <button type="submit" className="danger">
        {t.refundButton}
      </button>
      <ConfirmDialog
        open={asked !== null}
        onClose={() => setAsked(null)}
        title={t.refundTitle(order.id)}
        confirmLabel={t.confirmRefund(formatMoney(giving))}
        onConfirm={confirm}
        busy={action.busy}
        danger
        effect={
          <>
            <p data-testid="refund-effect">
              {full
                ? t.refundEffectFull(formatMoney(giving), order.gateway)
                : t.refundEffectPartial(formatMoney(giving), formatMoney(order.total), order.gateway)}
            </p>
            {full && <p>{asked?.keepLine ? t.refundKeeps : t.refundTakesBack(order.kind)}</p>}
            {!REFUNDS_BY_API.has(order.gateway) && <p>{t.refundEffectManual}</p>}
            <p>{t.refundMailed}</p>
          </>
        }
      >
        {action.result && 'error' in action.result && <ErrorNote error={action.result.error} />}
      </ConfirmDialog>
    </form>
  );
}
