import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { isApiError } from '../../api/client';
import { type Order, cancelOrder } from '../../api/orders';
import { watchOrder } from '../../core/orderWatch';
import { useCheckout, useController, useResource } from '../../ui/context';
import { useErrorText, useTexts } from '../../ui/texts';
import { refocus } from '../../ui/focus';
import { Icon } from '../../ui/icons';
import { catalogKey } from '../../core/catalog';
import { forgetCart, restoreCart } from '../../core/cart';
import { Centered, HomeLink } from '../../ui/Views';
import { useSheet } from '../../element/styles';
import componentsCss from '../../ui/components.css?inline';
import orderCss from './order.css?inline';

/** The order id from the route (?order=) or, failing that, the one remembered in the cookie. */
export function orderIdFrom(query: Record<string, string>, remembered: string): string {
  const q = query.order ?? '';
  // "{orderId}" comes back untouched from an API that does not fill in the return URL.
  return q && !q.includes('{') ? q : remembered;
}

const PAID = new Set(['paid', 'provisioning', 'active', 'partially_refunded']);
/** Paid and delivered: the success page, with its receipt (a partial refund's credit note on it). */
const DELIVERED = new Set(['active', 'partially_refunded']);

/**
 * Follows the order on its stream (GET /orders/{id}/events; polling GET /orders/{id} every 2 s when
 * the stream fails) until it is active (→ success), held or ended.
 */
export function Waiting({ reseller }: { reseller?: boolean }) {
  useSheet(componentsCss);
  useSheet(orderCss);
  const c = useController();
  const { t, money } = useTexts('order');
  const errorText = useErrorText();
  const route = useCheckout((s) => s.route);
  const persisted = useCheckout((s) => s.persisted);
  const orderId = orderIdFrom(route.query, persisted.order.orderid);
  const [order, setOrder] = useState<Order | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  // Set once the buyer cancelled: a poll under way must not show the order as pending again.
  const cancelled = useRef(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);

  // The cancel question replaces its button: focus goes to the safe answer, and back when it closes.
  const asked = useRef(false);
  useLayoutEffect(() => {
    if (confirming) keepRef.current?.focus();
    else if (asked.current) refocus(c.host, cancelRef.current);
    asked.current = confirming;
  }, [confirming, c]);

  useEffect(() => {
    if (!orderId) return;
    const p = c.getState().persisted;
    if (!p.waiting.lastDate || p.order.orderid !== orderId) {
      c.update((s) => ({ ...s, waiting: { lastDate: new Date().toISOString(), duration: 0 } }));
    }
    // The order's stream (GET /orders/{id}/events), or polling when it cannot be had.
    return watchOrder(c.client, orderId, {
      order: (o) => {
        if (cancelled.current) return true;
        setOrder(o);
        setError(null);
        c.update((s) => ({
          ...s,
          order: {
            orderid: o.orderId,
            invoiceid: o.invoiceId || s.order.invoiceid,
            serviceid: o.serviceIds,
            fraud: o.fraud || o.status === 'fraud',
          },
          waiting: { lastDate: s.waiting.lastDate, duration: s.waiting.lastDate ? Date.now() - Date.parse(s.waiting.lastDate) : 0 },
        }));
        if (PAID.has(o.status)) c.emitOnce(`paid:${o.orderId}`, 'streamcart:order-paid', { orderId: o.orderId });
        if (DELIVERED.has(o.status)) {
          forgetCart();
          c.emitOnce(`ready:${o.orderId}`, 'streamcart:service-ready', { orderId: o.orderId, serviceIds: o.serviceIds });
          // The reseller success page reads the plan's service (spec §4 guard: ?serviceid=); an
          // extra-connection order shows its service's new connections (?upsell=).
          const upsell = c.getState().route.query.upsell;
          if (reseller) c.navigate('resellers/success', { serviceid: o.serviceIds[0] ?? '' }, { replace: true });
          else c.navigate('success', { order: o.orderId, ...(upsell ? { upsell } : {}) }, { replace: true });
          return true;
        }
        return (
          o.status === 'fraud' ||
          o.fraud ||
          o.status === 'cancelled' ||
          o.status === 'failed' ||
          o.status === 'needs_review' ||
          o.status === 'refunded'
        );
      },
      error: (e) => {
        if (isApiError(e) && e.code === 'malformed') {
          c.fail(e);
          return true;
        }
        setError(e);
        // Not ours, or no longer signed in: reading again will not change that.
        return isApiError(e) && (e.code === 'not_found' || e.code === 'unauthorized');
      },
    });
  }, [orderId, reseller, c]);

  if (!orderId) {
    return (
      <Centered icon="help" title={t.errors.not_found}>
        <HomeLink>{t.backToPlans}</HomeLink>
      </Centered>
    );
  }

  // Money arrived that the order cannot take (it was cancelled, expired, held or paid already):
  // it is refunded; this comes before the held view, whose text says nothing was taken.
  if (order && order.status === 'needs_review')
    return <HeldView orderId={order.orderId} title={t.reviewTitle} text={t.reviewText} testId="review-notice" />;
  if (order && (order.status === 'fraud' || order.fraud)) return <FraudView orderId={order.orderId} />;

  // No session for this order in this browser (the order mail's link opened on another device, or
  // after signing out): not "your session has expired", but the way in: signing in, which leads to
  // the buyer's services, orders and invoices.
  if (isApiError(error) && error.code === 'unauthorized') {
    return (
      <Centered icon="lock" title={t.signInToSee} testId="order-sign-in">
        <p className="sc-lead">{t.signInToSeeLead}</p>
        <div className="sc-actions">
          <a
            className="sc-btn sc-btn-primary"
            href={c.servicesHref()}
            data-testid="order-sign-in-link"
            onClick={(e) => {
              if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
              e.preventDefault();
              c.navigate('', { view: 'services' });
            }}
          >
            {t.signInToSeeAction}
          </a>
          <HomeLink className="sc-btn sc-btn-ghost">{t.backToPlans}</HomeLink>
        </div>
      </Centered>
    );
  }
  if (isApiError(error) && error.code === 'not_found') {
    return (
      <Centered icon="alert" tone="error" title={t.errorTitle}>
        <p className="sc-lead" role="alert">
          {errorText(error)}
        </p>
        <HomeLink>{t.backToPlans}</HomeLink>
      </Centered>
    );
  }

  // A refunded order ended too, but it was paid: it says so, not that nothing was charged.
  const refunded = order?.status === 'refunded';
  const ended = order && (order.status === 'cancelled' || order.status === 'failed' || refunded);
  // Seen by the provider and being confirmed: paid already, so neither paying nor cancelling again.
  const seen = order?.status === 'pending' && order.paymentState ? order.paymentState : undefined;
  const awaiting = order?.status === 'pending' && !seen;
  // Before the first answer it says what it waits for, not "Loading…".
  const status = !order
    ? t.statusPending
    : seen
      ? t.paymentStates[seen]
      : order.status === 'pending'
        ? t.statusPending
        : order.status === 'paid'
          ? t.statusPaid
          : order.status === 'provisioning'
            ? t.statusProvisioning
            : order.status === 'active'
              ? t.statusActive
              : order.status === 'cancelled'
                ? t.statusCancelled
                : refunded
                  ? t.statusRefunded
                  : t.statusFailed;
  const paymentUrl = order?.paymentUrl ? c.client.resolve(order.paymentUrl) : persisted.payment.url;

  // Spec §4: cancelling resets the order ids and the fraud flag. The API lets only the owner cancel.
  async function cancel() {
    setCancelling(true);
    try {
      const o = await cancelOrder(c.client, orderId);
      cancelled.current = true;
      setOrder(o);
      setError(null);
      c.update((p) => ({
        ...p,
        order: { ...p.order, orderid: '', invoiceid: '', fraud: false },
        payment: { gateway: '', url: '', deadline: '' },
      }));
    } catch (e) {
      if (isApiError(e) && e.code === 'malformed') c.fail(e);
      else setError(e);
    } finally {
      setCancelling(false);
      setConfirming(false);
    }
  }

  return (
    <Centered
      icon={ended ? 'alert' : 'spinner'}
      tone={ended ? 'error' : 'busy'}
      title={ended ? status : t.waitingTitle}
      focusKey={ended ? 'ended' : 'waiting'}
    >
      {!ended && (
        <p
          className="sc-lead"
          role="status"
          aria-live="polite"
          data-testid="waiting-status"
          data-status={order?.status ?? 'loading'}
          data-payment-state={seen}
        >
          {status}
        </p>
      )}
      {ended && (
        <p className="sc-lead" data-testid="waiting-status" data-status={order.status}>
          {refunded ? t.refundedHint : t.endedHint}
        </p>
      )}
      <p className="sc-muted">
        {t.orderNumber(orderId)}
        {order ? ` · ${money(order.total)}` : ''}
      </p>
      {awaiting && order.paymentQuote && (
        <p className="sc-muted" data-testid="payment-quote">
          {t.payCrypto(
            order.paymentQuote.amount,
            order.paymentQuote.currency,
            order.paymentQuote.network,
            order.total.currency,
            order.paymentQuote.rate,
          )}
        </p>
      )}
      {!ended && <p className="sc-hint">{t.waitingHint}</p>}
      {error !== null && !ended && (
        <p className="sc-alert" role="alert">
          <Icon name="alert" />
          {errorText(error)}
        </p>
      )}
      <div className="sc-actions">
        {awaiting && paymentUrl && (
          <a className="sc-btn sc-btn-primary" href={paymentUrl}>
            {t.completePayment}
          </a>
        )}
        {awaiting && !confirming && (
          <button
            ref={cancelRef}
            type="button"
            className="sc-btn sc-btn-ghost"
            data-testid="cancel-order"
            onClick={() => setConfirming(true)}
          >
            {t.cancelOrder}
          </button>
        )}
        {ended && <BackToPlans orderId={orderId} />}
      </div>
      {awaiting && confirming && (
        <div className="sc-confirm" role="alertdialog" aria-labelledby="sc-cancel-q" data-testid="cancel-order-confirm">
          <p id="sc-cancel-q">{t.cancelConfirm}</p>
          <div className="sc-actions">
            <button
              type="button"
              className="sc-btn sc-btn-danger"
              data-testid="cancel-order-yes"
              aria-disabled={cancelling || undefined}
              aria-busy={cancelling || undefined}
              onClick={() => !cancelling && void cancel()}
            >
              {cancelling ? t.processing : t.cancelYes}
            </button>
            <button
              ref={keepRef}
              type="button"
              className="sc-btn sc-btn-ghost"
              aria-disabled={cancelling || undefined}
              onClick={() => !cancelling && setConfirming(false)}
            >
              {t.cancelNo}
            </button>
          </div>
        </div>
      )}
    </Centered>
  );
}

/** "Back to plans" after a failed or cancelled payment: the plans with the cart of that order. */
function BackToPlans({ orderId }: { orderId: string }) {
  const c = useController();
  const { t } = useTexts('order');
  const href = useCheckout(() => c.homeHref());
  return (
    <a
      className="sc-btn sc-btn-primary"
      href={href}
      data-testid="back-to-plans"
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        restoreCart(c, orderId);
        c.navigate('');
      }}
    >
      {t.backToPlans}
    </a>
  );
}

export function FraudView({ orderId }: { orderId: string }) {
  const { t } = useTexts('order');
  return <HeldView orderId={orderId} title={t.fraudTitle} text={t.fraudText} testId="fraud-error" />;
}

/** An order a person must look at (held, or paid when it could no longer be): support is the way on. */
function HeldView({ orderId, title, text, testId }: { orderId: string; title: string; text: string; testId: string }) {
  const c = useController();
  const { t, locale } = useTexts('order');
  const storefront = useResource(catalogKey.storefront(locale), () =>
    c.cached(catalogKey.storefront(locale), () => c.client.storefront(locale)),
  );
  return (
    <div role="alert" data-testid={testId}>
      <Centered icon="shield" tone="error" title={title}>
        <p className="sc-lead">{text}</p>
        <p className="sc-muted">{t.orderNumber(orderId)}</p>
        <div className="sc-actions">
          {storefront.data?.supportUrl && (
            <a className="sc-btn sc-btn-primary" href={storefront.data.supportUrl} target="_blank" rel="noopener">
              {t.contactSupport}
            </a>
          )}
          <HomeLink className="sc-btn sc-btn-ghost">{t.backHome}</HomeLink>
        </div>
      </Centered>
    </div>
  );
}
