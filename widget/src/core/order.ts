// Placing an order (spec §4 order lifecycle) and the automatic order from landing parameters.
import { isApiError, type OrderBody, type QuoteBody } from '../api/client';
import type { Money, Product } from '../api/schemas';
import { browser } from './browser';
import type { Controller } from './controller';
import { orderStarted } from './persisted';
import { extraConnectionsFor, findOption } from './options';
import { createOrder, createSession, geo, getPromotion } from '../api/orders';
import { startSession } from './signin';
import { returnUrl } from './returns';
import { affiliateId } from './affiliate';
import { rememberCart } from './cart';

export type Group = 'plan' | 'reseller';

export interface OrderInput {
  body: QuoteBody;
  gateway: string;
  expectedTotal: Money;
  email: string;
  subscribe: boolean;
  group: Group;
  /** The buyer ticked "Renew automatically with this card" (Stripe, a recurring cycle). */
  renewWithCard?: boolean;
}

const DAY_MS = 24 * 3600 * 1000;

/** Makes sure the session belongs to `email`; a new email (or `force`) asks for a new session. */
export async function ensureSession(c: Controller, email: string, force = false): Promise<void> {
  const p = c.getState().persisted;
  if (!force && p.token && p.auth.loggedIn && p.user.email.toLowerCase() === email.toLowerCase()) return;
  const session = await createSession(c.client, email);
  startSession(c, session);
}

/**
 * Creates the order and leaves for the payment page, or goes to the waiting view when there is
 * nothing to pay (free trial) or the order was held. Returns false when it stopped; with `silent`
 * a failure just returns to the plans (the automatic order of spec §4 stops without a word).
 */
export async function placeOrder(c: Controller, input: OrderInput, opts: { silent?: boolean } = {}): Promise<boolean> {
  const waiting = input.group === 'reseller' ? 'resellers/waiting' : 'waiting';
  const home = input.group === 'reseller' ? 'resellers' : '';
  c.setAttempt({ status: 'creating' });
  if (c.getState().route.name !== 'creatingOrder') c.navigate('creatingOrder');
  try {
    await ensureSession(c, input.email);
    c.update(orderStarted);
    const affiliate = affiliateId(c.landing);
    const body: OrderBody = {
      ...input.body,
      gateway: input.gateway,
      expectedTotal: input.expectedTotal,
      returnUrl: returnUrl(c.place(), waiting),
      emailSubscription: input.subscribe,
      ...(input.renewWithCard ? { renewWithCard: true } : {}),
      ...(affiliate ? { affiliateId: affiliate } : {}),
    };
    let order;
    try {
      order = await createOrder(c.client, body, c.idempotency.for(JSON.stringify(body)));
    } catch (e) {
      // An expired or revoked token: identify again once, then retry the same order.
      if (!isApiError(e) || e.code !== 'unauthorized') throw e;
      await ensureSession(c, input.email, true);
      c.idempotency.forget();
      order = await createOrder(c.client, body, c.idempotency.for(JSON.stringify(body)));
    }
    c.idempotency.forget();
    const o = order;
    c.update((p) => ({
      ...p,
      order: { orderid: o.orderId, invoiceid: o.invoiceId, serviceid: o.serviceIds, fraud: o.fraud },
      products: { ...p.products, totalPrice: o.total },
      waiting: { lastDate: null, duration: 0 },
    }));
    c.emit('streamcart:order-created', { orderId: o.orderId, invoiceId: o.invoiceId, status: o.status, total: o.total });

    if (o.paymentUrl && !o.fraud && o.status === 'pending') {
      const paymentUrl = c.client.resolve(o.paymentUrl);
      const deadline = o.paymentDeadline || new Date(Date.now() + DAY_MS).toISOString();
      c.update((p) => ({ ...p, payment: { gateway: input.gateway, url: paymentUrl, deadline } }));
      c.setAttempt({ status: 'redirecting', paymentUrl });
      c.emit('streamcart:payment-started', { orderId: o.orderId, gateway: input.gateway, paymentUrl });
      // A failed or cancelled payment brings the buyer back to this cart, not to an empty one.
      if (input.group === 'plan') rememberCart(c, o.orderId);
      browser.assign(paymentUrl);
      return true;
    }
    c.setAttempt({ status: 'idle' });
    c.navigate(waiting, { order: o.orderId }, { replace: true });
    return true;
  } catch (e) {
    if (opts.silent) {
      c.setAttempt({ status: 'idle' });
      c.navigate(home, {}, { replace: true });
      return false;
    }
    if (isApiError(e) && e.code === 'malformed') {
      c.setAttempt({ status: 'idle' });
      c.fail(e);
      return false;
    }
    if (isApiError(e) && e.code === 'price_changed' && e.quote) {
      c.idempotency.forget();
      c.setAttempt({ status: 'priceChanged', quote: e.quote });
    } else {
      c.setAttempt({
        status: 'failed',
        code: isApiError(e) ? e.code : 'internal',
        message: isApiError(e) ? e.message : String(e),
      });
      if (isApiError(e)) c.emit('streamcart:error', { name: e.code, message: e.message });
    }
    c.navigate(home, {}, { replace: true });
    return false;
  }
}

/** Spec §4 "pick the first currency price above zero". */
export function firstPaidCycle(product: Product) {
  return product.cycles.find((cy) => (product.pricing[cy]?.amount ?? 0) > 0) ?? product.cycles[0] ?? null;
}

/**
 * The automatic order (email + pid + auto_redirect=true in the landing URL): session → product →
 * quote (GBP for visitors from GB, else EUR) → order with the default gateway → payment page.
 * Any failure stops it silently and leaves the normal checkout on screen.
 */
export async function autoOrder(c: Controller): Promise<boolean> {
  const { email, pid, connections, proxyProtection, promocode } = c.landing;
  if (!email || !pid) return false;
  c.setAttempt({ status: 'creating' });
  c.navigate('creatingOrder', {}, { replace: true });
  const stop = () => {
    c.setAttempt({ status: 'idle' });
    c.navigate('', {}, { replace: true });
    return false;
  };
  try {
    await ensureSession(c, email);
    const country = await geo(c.client).then(
      (g) => g.country.toUpperCase(),
      () => 'XX',
    );
    const currency = country === 'GB' ? 'GBP' : 'EUR';
    const product = await c.client.product(pid, currency);
    const cycle = firstPaidCycle(product);
    if (!cycle) return stop();
    let promoCode: string | undefined;
    if (promocode) {
      // A code that does not apply is left out rather than stopping the order.
      promoCode = await getPromotion(c.client, promocode, pid).then(
        (p) => p.code,
        () => undefined,
      );
    }
    const body: QuoteBody = {
      pid,
      billingCycle: cycle,
      currency,
      extraConnections: findOption(product, 'extra') ? extraConnectionsFor(true, connections ?? 1) : 0,
      proxyProtection: !!findOption(product, 'proxy') && proxyProtection,
      ...(promoCode ? { promoCode } : {}),
    };
    const [quote, gateways] = await Promise.all([c.client.quote(body), c.client.gateways()]);
    const gateway = gateways.default || gateways.gateways[0]?.module;
    if (!gateway) return stop();
    return placeOrder(c, { body, gateway, expectedTotal: quote.total, email, subscribe: false, group: 'plan' }, { silent: true });
  } catch {
    return stop();
  }
}
