// The after-sale calls of the contract (issue 4) and their schemas, beside the other schemas of
// api/: each answer parsed with its valibot schema through the main client's request() (a
// malformed answer is an ApiError "malformed"). Only the after-sale screens import this file, so
// it loads with their chunk.
import * as v from 'valibot';
import type { Client } from './client';
import { id, int, MoneySchema } from './primitives';
import { OrderSchema, ServiceSchema, SessionSchema, TaxSchema } from './orders';

export const ServiceListSchema = v.object({ services: v.array(ServiceSchema) });

export const OfferSchema = v.object({
  serviceId: id,
  name: v.string(),
  pid: v.optional(int, 0),
  billingCycle: v.optional(v.string(), ''),
  pricingCycle: v.string(),
  maxConnections: int,
  maxExtra: v.pipe(int, v.minValue(0)),
  unitPrice: MoneySchema,
});
export const OfferListSchema = v.object({ offers: v.array(OfferSchema) });

export const UpsellQuoteSchema = v.object({
  serviceId: id,
  extraQuantity: int,
  pricingCycle: v.optional(v.string(), ''),
  unitPrice: MoneySchema,
  total: MoneySchema,
  maxConnections: int,
  // The total without tax and the tax in it, in the line's first order's country (absent without a tax block).
  net: v.optional(MoneySchema),
  tax: v.nullish(TaxSchema),
});

export const UpsellOrderSchema = v.object({
  orderId: id,
  invoiceId: v.optional(id, ''),
  serviceId: id,
  extraQuantity: int,
  status: OrderSchema.entries.status,
  fraud: v.optional(v.boolean(), false),
  total: MoneySchema,
  paymentUrl: v.optional(v.string(), ''),
  paymentDeadline: v.optional(v.string(), ''),
});

export const ResellerMeSchema = v.object({ isReseller: v.boolean(), balance: v.optional(int, 0) });

export const ResellerOrderSchema = v.object({
  orderId: id,
  invoiceId: v.optional(id, ''),
  serviceId: v.optional(id, ''),
  serviceIds: v.optional(v.array(id), []),
  status: OrderSchema.entries.status,
  fraud: v.optional(v.boolean(), false),
  total: MoneySchema,
  paymentUrl: v.optional(v.string(), ''),
  paymentDeadline: v.optional(v.string(), ''),
  session: v.optional(SessionSchema),
});

export const ResellerServiceSchema = v.object({
  serviceId: id,
  orderId: v.optional(id, ''),
  pid: v.optional(int, 0),
  name: v.string(),
  status: v.string(),
  credits: v.optional(int, 0),
  balance: v.optional(int, 0),
  account: v.optional(v.string(), ''),
});

/** GET /invoices/{id}?t=: a renewal invoice as its pay link's holder sees it (no sign-in). */
export const InvoiceSchema = v.object({
  invoiceId: id,
  orderId: v.optional(id, ''),
  serviceId: v.optional(id, ''),
  serviceName: v.optional(v.string(), ''),
  username: v.optional(v.string(), ''),
  status: v.picklist(['unpaid', 'paid']),
  billingCycle: v.optional(v.string(), ''),
  periodStart: v.optional(v.string(), ''),
  periodEnd: v.optional(v.string(), ''),
  nextDueDate: v.optional(v.string(), ''),
  serviceStatus: v.optional(v.string(), ''),
  lines: v.optional(v.array(v.object({ description: v.string(), amount: MoneySchema })), []),
  total: MoneySchema,
  // A taxed order: the total without tax and the tax in it (absent from an untaxed one, and from an older server).
  net: v.optional(MoneySchema),
  tax: v.nullish(TaxSchema),
  gateway: v.optional(v.string(), ''),
  gateways: v.optional(v.array(v.object({ module: v.string(), displayName: v.string() })), []),
  paymentDeadline: v.optional(v.string(), ''),
});

/** POST /invoices/{id}/pay?t=: where to pay it. */
export const InvoicePaymentSchema = v.object({
  paymentUrl: v.pipe(v.string(), v.minLength(1)),
  orderId: v.optional(id, ''),
  invoiceId: v.optional(id, ''),
});

export type Invoice = v.InferOutput<typeof InvoiceSchema>;
export type Offer = v.InferOutput<typeof OfferSchema>;
export type UpsellQuote = v.InferOutput<typeof UpsellQuoteSchema>;
export type ResellerService = v.InferOutput<typeof ResellerServiceSchema>;

const path = (s: string) => encodeURIComponent(s);

/**
 * The after-sale calls; service names come back in `locale` where the catalog translates them.
 * `newKey` makes an order's Idempotency-Key (a UUID: core/browser.ts's, passed in by the screens,
 * so that api/ keeps to the network and imports nothing above it).
 */
export function afterSaleApi(client: Client, locale: string | undefined, newKey: () => string) {
  const { request, send } = client;
  const query = { locale };
  // One Idempotency-Key per order body until it succeeds: a retry after a lost answer gets the
  // first order back, while the same purchase made again later is a new order.
  const keys = new Map<string, string>();
  async function once<T>(body: object, place: (headers: Record<string, string>) => Promise<T>): Promise<T> {
    const b = JSON.stringify(body);
    const key = keys.get(b) ?? newKey();
    keys.set(b, key);
    const res = await place({ 'Idempotency-Key': key });
    keys.delete(b);
    return res;
  }
  return {
    requestLink: async (email: string, returnUrl: string) => {
      await send('POST', '/session/link', { body: { email, returnUrl } });
    },
    redeemLink: (token: string) => request(SessionSchema, 'POST', `/session/link/${path(token)}`),
    signIn: (email: string, password: string) => request(SessionSchema, 'POST', '/session', { body: { email, password } }),
    services: () => request(ServiceListSchema, 'GET', '/services', { auth: true, query }),
    restart: (serviceId: string) => request(ServiceSchema, 'POST', `/services/${path(serviceId)}/restart`, { auth: true, query }),
    recreate: (serviceId: string) => request(ServiceSchema, 'POST', `/services/${path(serviceId)}/recreate`, { auth: true, query }),
    terminate: (serviceId: string) =>
      request(ServiceSchema, 'POST', `/services/${path(serviceId)}/terminate`, { auth: true, query, body: { confirm: true } }),
    setMac: (serviceId: string, macAddress: string) =>
      request(ServiceSchema, 'PUT', `/services/${path(serviceId)}/mac`, { auth: true, query, body: { macAddress } }),
    // Renewals (issue 13). renew() answers the open renewal invoice of the same cycle, or a new one.
    renew: (serviceId: string, body: { billingCycle?: string; pid?: number; gateway?: string; returnUrl?: string }) =>
      request(OrderSchema, 'POST', `/services/${path(serviceId)}/renew`, { auth: true, query, body }),
    cancelAutoRenew: (serviceId: string) => request(ServiceSchema, 'POST', `/services/${path(serviceId)}/cancel`, { auth: true, query }),
    resumeAutoRenew: (serviceId: string) => request(ServiceSchema, 'POST', `/services/${path(serviceId)}/resume`, { auth: true, query }),
    // A pay link's token is the only credential: no session is sent.
    invoice: (invoiceId: string, t: string) => request(InvoiceSchema, 'GET', `/invoices/${path(invoiceId)}`, { query: { t, locale } }),
    payInvoice: (invoiceId: string, t: string, body: { gateway?: string; returnUrl?: string }) =>
      request(InvoicePaymentSchema, 'POST', `/invoices/${path(invoiceId)}/pay`, { query: { t, locale }, body }),
    offers: (currency: string) => request(OfferListSchema, 'GET', '/upsell/offers', { auth: true, query: { currency, locale } }),
    quote: (body: { serviceId: string; extraQuantity: number; currency: string }) =>
      request(UpsellQuoteSchema, 'POST', '/upsell/quote', { auth: true, body }),
    upsellOrder: (body: { serviceId: string; extraQuantity: number; currency: string; gateway: string; returnUrl: string }) =>
      once(body, (headers) => request(UpsellOrderSchema, 'POST', '/upsell/orders', { auth: true, body, headers })),
    resellerMe: () => request(ResellerMeSchema, 'GET', '/resellers/me', { auth: true }),
    resellerOrder: (body: {
      pid: number;
      gateway: string;
      existingReseller: boolean;
      password: string;
      confirmPassword: string;
      currency: string;
      returnUrl: string;
    }) => once(body, (headers) => request(ResellerOrderSchema, 'POST', '/resellers/orders', { auth: true, body, headers })),
    resellerService: (serviceId: string) =>
      request(ResellerServiceSchema, 'GET', `/resellers/services/${path(serviceId)}`, { auth: true, query }),
  };
}

export type AfterSaleApi = ReturnType<typeof afterSaleApi>;
