// Renewals in "My services" (issue 13): the open renewal invoice with "Pay now", early renewal in
// the same or another cycle of the plan, a trial continued with a paid plan, cancelling and
// resuming auto-renew, and the renewal paid on the return from the payment page.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { getService, type Service } from '../../api/orders';
import { watchOrder } from '../../core/orderWatch';
import type { Cycle } from '../../api/schemas';
import { useAfterSaleError, useApi } from './hooks';
import { useGateways } from './Gateways';
import {
  ENDED_STATUSES,
  forgetRenewal,
  PAID_STATUSES,
  pendingRenewal,
  rememberRenewal,
  renewableCycles,
  type PendingRenewal,
} from './renewal';
import { isApiError } from '../../api/client';
import { browser } from '../../core/browser';
import { catalogKey } from '../../core/catalog';
import { timing } from '../../core/timing';
import { useCheckout, useController, useResource } from '../../ui/context';
import { useAfterSaleTexts } from '../../ui/texts';
import { refocus } from '../../ui/focus';
import { Icon } from '../../ui/icons';
import { BusyButton } from '../../ui/BusyButton';
import { Alert, StatusNote } from '../../ui/Notice';
import { viewReturnUrl } from '../../core/returns';

/** How long the renewal order is followed after the return, in polls at the Waiting view's pace, before giving up quietly. */
const MAX_POLLS = 30;

/**
 * Back from paying a renewal: follows its order (its stream, else polling) until it is paid, then announces it
 * (streamcart:renewal-paid) and calls `paid` so the list shows the new due date.
 */
export function useRenewalReturn(paid: () => void): 'confirming' | 'paid' | null {
  const c = useController();
  const [pending] = useState<PendingRenewal | null>(pendingRenewal);
  const [state, setState] = useState<'confirming' | 'paid' | null>(pending ? 'confirming' : null);
  const paidRef = useRef(paid);
  paidRef.current = paid;

  useEffect(() => {
    if (!pending) return;
    // Not paid within the waiting page's patience (the buyer came back without paying): the
    // banner still offers it.
    let stopWatch: () => void = () => undefined;
    const giveUp = () => {
      stopWatch();
      forgetRenewal();
      setState(null);
    };
    const patience = setTimeout(giveUp, MAX_POLLS * timing.pollMs);
    // The renewal order's stream (GET /orders/{id}/events), or polling when it cannot be had.
    stopWatch = watchOrder(c.client, pending.orderId, {
      order: (o) => {
        if (PAID_STATUSES.includes(o.status)) {
          clearTimeout(patience);
          forgetRenewal();
          c.emitOnce(`renewal-paid:${pending.invoiceId || o.invoiceId}`, 'streamcart:renewal-paid', {
            invoiceId: pending.invoiceId || o.invoiceId,
            orderId: o.orderId,
            serviceId: pending.serviceId,
          });
          setState('paid');
          paidRef.current();
          return true;
        }
        if (!ENDED_STATUSES.includes(o.status)) return false;
        clearTimeout(patience);
        giveUp();
        return true;
      },
      error: (e) => {
        if (!(isApiError(e) && (e.code === 'not_found' || e.code === 'unauthorized' || e.code === 'malformed'))) return false;
        clearTimeout(patience);
        giveUp();
        return true;
      },
    });
    return () => {
      clearTimeout(patience);
      stopWatch();
    };
  }, [pending, c]);
  return state;
}

type Busy = 'pay' | 'renew' | 'cancel' | 'resume' | null;

/** The renewal part of one service card. */
export function RenewalPanel({ service: s, onChange }: { service: Service; onChange: (next: Service) => void }) {
  const c = useController();
  const api = useApi();
  const { a, t, money, date } = useAfterSaleTexts();
  const errText = useAfterSaleError();
  const [busy, setBusy] = useState<Busy>(null);
  const [form, setForm] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const renewRef = useRef<HTMLButtonElement>(null);
  const idBase = `sc-renew-${s.serviceId}`;

  // The question and the form replace the buttons: focus to the question's safe answer (the form
  // takes it itself), then back to the buttons when they return.
  const asked = useRef(false);
  useLayoutEffect(() => {
    if (confirming) keepRef.current?.focus();
    else if (asked.current) refocus(c.host, cancelRef.current ?? renewRef.current);
    asked.current = confirming;
  }, [confirming, c]);
  const opened = useRef(false);
  useLayoutEffect(() => {
    if (!form && opened.current) refocus(c.host, renewRef.current);
    opened.current = form;
  }, [form, c]);

  const recurring = !!s.billingCycle && s.billingCycle !== 'onetime';
  const live = s.status === 'Active' || s.status === 'Overdue' || s.status === 'Suspended';
  const canRenew = !s.trial && recurring && live;
  const canConvert = s.trial && (s.status === 'Active' || s.status === 'Expired');
  const canCancel = !s.trial && recurring && s.autoRenew && live;
  const canResume = !s.trial && recurring && !s.autoRenew && live && !!s.nextDueDate;

  /** POST /services/{id}/renew, then to the payment page (back to "My services" afterwards). */
  async function renew(kind: 'pay' | 'renew', body: { billingCycle?: string; pid?: number; gateway?: string }) {
    if (busy) return;
    setBusy(kind);
    setError(null);
    setMessage(null);
    try {
      const o = await api.renew(s.serviceId, { ...body, returnUrl: viewReturnUrl(c.place()) });
      if (o.paymentUrl && o.status === 'pending') {
        const paymentUrl = c.client.resolve(o.paymentUrl);
        rememberRenewal({ serviceId: s.serviceId, orderId: o.orderId, invoiceId: o.invoiceId });
        c.emit('streamcart:payment-started', { orderId: o.orderId, gateway: body.gateway ?? '', paymentUrl });
        browser.assign(paymentUrl);
        return;
      }
      // Nothing left to pay here (settled meanwhile): show the service as it is now.
      onChange(await getService(c.client, s.serviceId));
      setBusy(null);
    } catch (e) {
      if (isApiError(e) && e.code === 'malformed') c.fail(e);
      setError(errText(e));
      setBusy(null);
    }
  }

  async function toggle(kind: 'cancel' | 'resume') {
    if (busy) return;
    setBusy(kind);
    setError(null);
    setMessage(null);
    try {
      const next = await (kind === 'cancel' ? api.cancelAutoRenew(s.serviceId) : api.resumeAutoRenew(s.serviceId));
      onChange(next);
      setMessage(kind === 'cancel' ? a.autoRenewCancelled : a.autoRenewResumed);
    } catch (e) {
      if (isApiError(e) && e.code === 'malformed') c.fail(e);
      setError(errText(e));
    } finally {
      setBusy(null);
      setConfirming(false);
    }
  }

  const due = s.nextDueDate ? date(s.nextDueDate) : '';
  // The saved card did not pay the open renewal: say why, and to pay it with the banner's button.
  const cardFailed = s.renewalInvoiceId
    ? ({ declined: a.cardDeclined, authentication_required: a.cardAuthRequired, refused: a.cardRefused } as Record<string, string>)[
        s.renewalCardCharge ?? ''
      ]
    : undefined;
  return (
    <div className="sc-renewal">
      {s.recurringAmount && recurring && (
        <p className="sc-muted" data-testid="recurring-amount">
          {a.recurringPrice}: {money(s.recurringAmount)} {(t.perCycle as Record<string, string>)[s.billingCycle] ?? ''}
        </p>
      )}
      {s.renewalInvoiceId && (
        <div className="sc-renewal-banner" role="region" aria-labelledby={`${idBase}-open`} data-testid="renewal-banner">
          <p id={`${idBase}-open`}>
            <Icon name="alert" />
            <strong>{a.renewalOpen}</strong>{' '}
            <span data-testid="renewal-due">{s.recurringAmount ? a.renewalDue(money(s.recurringAmount), due) : a.renewalDueDate(due)}</span>
          </p>
          <BusyButton
            className="sc-btn sc-btn-primary sc-btn-small"
            testId="renewal-pay"
            busy={busy === 'pay'}
            blocked={busy !== null}
            busyLabel={a.working}
            onClick={() => void renew('pay', s.billingCycle ? { billingCycle: s.billingCycle } : {})}
          >
            {a.payRenewal}
          </BusyButton>
        </div>
      )}
      {(s.status === 'Suspended' || (s.status === 'Overdue' && !cardFailed)) && (
        <Alert tone="warn" quiet testId="renewal-warning">
          {s.status === 'Suspended' ? a.suspendedNote : a.overdueNote}
        </Alert>
      )}
      {cardFailed && (
        <Alert tone="warn" quiet testId="card-charge-failed">
          {cardFailed}
        </Alert>
      )}
      {s.renewsWithCard && s.autoRenew && !cardFailed && (
        <p className="sc-muted" data-testid="renews-with-card">
          {a.renewsWithCard}
        </p>
      )}
      {canResume && (
        <p className="sc-muted" data-testid="auto-renew-off">
          {a.autoRenewOff(due)}
        </p>
      )}

      {form && (canRenew || canConvert) ? (
        <RenewForm
          service={s}
          convert={canConvert}
          busy={busy === 'renew'}
          onSubmit={(body) => void renew('renew', body)}
          onClose={() => {
            setForm(false);
            setError(null);
          }}
        />
      ) : confirming && canCancel ? (
        <div className="sc-confirm" role="alertdialog" aria-labelledby={`${idBase}-cancel-q`} data-testid="cancel-renew-confirm">
          <p id={`${idBase}-cancel-q`}>{a.cancelAutoRenewConfirm(s.name)}</p>
          <div className="sc-actions">
            <BusyButton
              className="sc-btn sc-btn-danger"
              testId="cancel-renew-yes"
              busy={busy === 'cancel'}
              blocked={busy !== null}
              busyLabel={a.working}
              onClick={() => void toggle('cancel')}
            >
              {a.cancelAutoRenewYes}
            </BusyButton>
            <button
              ref={keepRef}
              type="button"
              className="sc-btn sc-btn-ghost"
              data-testid="cancel-renew-no"
              onClick={() => busy === null && setConfirming(false)}
            >
              {a.keep}
            </button>
          </div>
        </div>
      ) : (
        (canRenew || canConvert || canCancel || canResume) && (
          <div className="sc-service-actions">
            {(canRenew || canConvert) && (
              <BusyButton
                buttonRef={renewRef}
                className="sc-btn sc-btn-secondary sc-btn-small"
                testId={canConvert ? 'service-convert' : 'service-renew'}
                blocked={busy !== null}
                onClick={() => {
                  setForm(true);
                  setMessage(null);
                }}
              >
                {canConvert ? a.convertTrial : a.renewNow}
              </BusyButton>
            )}
            {canCancel && (
              <BusyButton
                buttonRef={cancelRef}
                className="sc-btn sc-btn-ghost sc-btn-small"
                testId="service-cancel-renew"
                blocked={busy !== null}
                onClick={() => setConfirming(true)}
              >
                {a.cancelAutoRenew}
              </BusyButton>
            )}
            {canResume && (
              <BusyButton
                className="sc-btn sc-btn-ghost sc-btn-small"
                testId="service-resume"
                busy={busy === 'resume'}
                blocked={busy !== null}
                busyLabel={a.working}
                onClick={() => void toggle('resume')}
              >
                {a.resumeAutoRenew}
              </BusyButton>
            )}
          </div>
        )
      )}

      <StatusNote message={message} testId="renewal-message" />
      {error && <Alert testId="renewal-error">{error}</Alert>}
    </div>
  );
}

/** Early renewal (a cycle of the same plan) or a trial's paid plan (plan and cycle), and the gateway. */
function RenewForm({
  service: s,
  convert,
  busy,
  onSubmit,
  onClose,
}: {
  service: Service;
  convert: boolean;
  busy: boolean;
  onSubmit: (body: { billingCycle?: string; pid?: number; gateway?: string }) => void;
  onClose: () => void;
}) {
  const c = useController();
  const { a, t, locale, money } = useAfterSaleTexts();
  const currency = useCheckout((st) => st.currency);
  const gateways = useGateways();
  // The plan's cycles come from the catalog the plan page reads (same cache key).
  const key = catalogKey.products('plan', currency, locale);
  const products = useResource(key, () => c.cached(key, () => c.client.products(currency, locale)));
  const paid = (products.data?.products ?? []).filter((p) => !p.trial && renewableCycles(p.cycles).length > 0);
  const [pid, setPid] = useState<number | null>(null);
  const [cycle, setCycle] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const product = convert
    ? (paid.find((p) => p.pid === pid) ?? paid[0] ?? null)
    : ((products.data?.products ?? []).find((p) => p.pid === s.pid) ?? null);
  // A plan the storefront no longer lists still renews in its own cycle.
  const cycles = product ? renewableCycles(product.cycles) : s.billingCycle ? [s.billingCycle] : [];
  const chosen = cycle && cycles.includes(cycle) ? cycle : cycles.includes(s.billingCycle) ? s.billingCycle : (cycles[0] ?? null);
  const idBase = `sc-renew-${s.serviceId}`;
  const ready = !!chosen && (!convert || !!product);

  return (
    <form
      className="sc-renew-form"
      data-testid="renew-form"
      noValidate
      aria-labelledby={`${idBase}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        if (busy || !ready) return;
        onSubmit({
          ...(chosen ? { billingCycle: chosen } : {}),
          ...(convert && product ? { pid: product.pid } : {}),
          ...(gateways.gateway ? { gateway: gateways.gateway } : {}),
        });
      }}
    >
      <h4 className="sc-card-title" id={`${idBase}-title`} ref={heading} tabIndex={-1}>
        {convert ? a.convertTrial : a.renewTitle}
      </h4>
      <p className="sc-hint">{convert ? a.convertLead : a.renewLead}</p>
      {convert && (
        <div className="sc-field">
          <label className="sc-label" htmlFor={`${idBase}-plan`}>
            {a.paidPlan}
          </label>
          <select
            id={`${idBase}-plan`}
            className="sc-input sc-select"
            data-testid="renew-plan"
            value={product?.pid ?? ''}
            onChange={(e) => setPid(Number(e.target.value))}
          >
            {paid.map((p) => (
              <option key={p.pid} value={p.pid}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="sc-field">
        <label className="sc-label" htmlFor={`${idBase}-cycle`}>
          {a.renewCycle}
        </label>
        <select
          id={`${idBase}-cycle`}
          className="sc-input sc-select"
          data-testid="renew-cycle"
          value={chosen ?? ''}
          onChange={(e) => setCycle(e.target.value)}
        >
          {cycles.map((cy) => {
            const price = convert ? product?.pricing[cy] : undefined;
            return (
              <option key={cy} value={cy}>
                {(t.cycles as Record<string, string>)[cy as Cycle] ?? cy}
                {price ? ` · ${money(price)}` : ''}
              </option>
            );
          })}
        </select>
      </div>
      {gateways.list.length > 0 && (
        <div className="sc-field">
          <label className="sc-label" htmlFor={`${idBase}-gateway`}>
            {a.paymentMethod}
          </label>
          <select
            id={`${idBase}-gateway`}
            className="sc-input sc-select"
            data-testid="renew-gateway"
            value={gateways.gateway ?? ''}
            onChange={(e) => gateways.choose(e.target.value)}
          >
            {gateways.list.map((g) => (
              <option key={g.module} value={g.module}>
                {g.displayName}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="sc-actions">
        <BusyButton
          type="submit"
          className="sc-btn sc-btn-primary"
          testId="renew-submit"
          busy={busy}
          blocked={!ready}
          busyLabel={a.working}
        >
          {a.payNow}
        </BusyButton>
        <button type="button" className="sc-btn sc-btn-ghost" data-testid="renew-close" onClick={onClose}>
          {a.close}
        </button>
      </div>
    </form>
  );
}
