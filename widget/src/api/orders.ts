// The calls of a purchase after the plan page: the buyer's session, the order, its services and
// playlist, a promo code and the visitor's country, each answer parsed with its valibot schema
// through the client's request(). Only the checkout, order and after-sale screens make them, so
// they and their schemas load with those screens, not with the plan page's first script.
import * as v from 'valibot';
import { ApiError, type Client, type OrderBody } from './client';
import { id, int, MoneySchema } from './primitives';
import { QuoteSchema } from './schemas';

export const PromotionSchema = v.object({
  code: v.string(),
  type: v.string(),
  value: v.union([v.string(), v.number()]),
  appliesTo: v.optional(v.array(int), []),
});

export const SessionSchema = v.object({
  token: v.pipe(v.string(), v.minLength(1)),
  // An opaque usr_… id since issue 12 (once a decimal number): compared, never parsed.
  userId: v.string(),
  email: v.string(),
  scope: v.optional(v.string(), 'email'),
});

export const GeoSchema = v.object({ ip: v.string(), country: v.string() });

export const ORDER_STATUSES = [
  'pending',
  'paid',
  'provisioning',
  'active',
  'fraud',
  'cancelled',
  'failed',
  'needs_review',
  'partially_refunded',
  'refunded',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A pending order's payment state at the provider (the API's paymentState). */
export const PAYMENT_STATES = ['processing'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** The tax in a quote's or an order's total (a catalog with a tax block): the billing country taxed, its rate, and the address's country. */
export const TaxSchema = v.object({
  country: v.string(),
  rate: v.string(),
  amount: int,
  currency: v.string(),
  pricesIncludeTax: v.optional(v.boolean(), true),
  ipCountry: v.optional(v.string(), ''),
});
export type Tax = v.InferOutput<typeof TaxSchema>;

export const OrderSchema = v.object({
  orderId: id,
  invoiceId: v.optional(id, ''),
  status: v.picklist(ORDER_STATUSES),
  fraud: v.optional(v.boolean(), false),
  serviceIds: v.optional(v.array(id), []),
  total: MoneySchema,
  paymentUrl: v.optional(v.string(), ''),
  paymentDeadline: v.optional(v.string(), ''),
  // What a crypto gateway asks in its own currency (Coinbase: USDC), converted when its link was made.
  paymentQuote: v.optional(
    v.object({ amount: v.string(), currency: v.string(), network: v.string(), rate: v.string(), rateTakenAt: v.string() }),
  ),
  // processing: the provider has seen the payment and is confirming it (the order is still pending).
  paymentState: v.optional(v.picklist(PAYMENT_STATES)),
  // The receipt (issue 25): absent from an older server; invoiceNumber and receiptUrl are null until paid.
  createdAt: v.optional(v.string(), ''),
  // The cycle names the plan line's period in the buyer's words ("Orders and invoices").
  // net and tax: the total without tax and the tax in it (tax null without a tax block).
  quote: v.optional(
    v.object({ ...QuoteSchema.entries, billingCycle: v.optional(v.string(), ''), net: v.optional(MoneySchema), tax: v.nullish(TaxSchema) }),
  ),
  recurring: v.nullish(v.object({ amount: int, currency: v.string(), billingCycle: v.string() })),
  invoiceNumber: v.nullish(v.string()),
  receiptUrl: v.nullish(v.string()),
  // A credit note's amount is what was given back, tax included; tax: the VAT in it (absent from an untaxed order).
  creditNotes: v.optional(
    v.array(v.object({ id, number: v.string(), amount: MoneySchema, tax: v.optional(MoneySchema), pdfUrl: v.string() })),
    [],
  ),
});

export const OrderListSchema = v.object({ orders: v.array(OrderSchema) });

export const ServiceSchema = v.object({
  serviceId: id,
  name: v.string(),
  status: v.string(),
  username: v.optional(v.string(), ''),
  password: v.optional(v.string(), ''),
  serverHostname: v.optional(v.string(), ''),
  maxConnections: v.optional(int, 1),
  billingCycle: v.optional(v.string(), ''),
  nextDueDate: v.optional(v.string(), ''),
  playlistUrl: v.optional(v.string(), ''),
  macAddress: v.optional(v.string(), ''),
  expiresAt: v.optional(v.string(), ''),
  trial: v.optional(v.boolean(), false),
  pid: v.optional(int, 0),
  // Renewals (issue 13): absent from an older server, so nothing renews there.
  autoRenew: v.optional(v.boolean(), false),
  renewsWithCard: v.optional(v.boolean(), false),
  renewalInvoiceId: v.nullish(v.string()),
  renewalOrderId: v.nullish(v.string()),
  // Why the saved card did not pay the open renewal (declined, authentication_required, refused).
  renewalCardCharge: v.nullish(v.string()),
  recurringAmount: v.nullish(MoneySchema),
});

export type Promotion = v.InferOutput<typeof PromotionSchema>;
export type Session = v.InferOutput<typeof SessionSchema>;
export type Geo = v.InferOutput<typeof GeoSchema>;
export type Order = v.InferOutput<typeof OrderSchema>;
export type Service = v.InferOutput<typeof ServiceSchema>;

const path = (id: string) => encodeURIComponent(id);

export const createSession = (c: Client, email: string) => c.request(SessionSchema, 'POST', '/session', { body: { email } });

export const createOrder = (c: Client, body: OrderBody, idempotencyKey: string) =>
  c.request(OrderSchema, 'POST', '/orders', { body, auth: true, headers: { 'Idempotency-Key': idempotencyKey } });

export const getOrder = (c: Client, orderId: string) => c.request(OrderSchema, 'GET', `/orders/${path(orderId)}`, { auth: true });

export const cancelOrder = (c: Client, orderId: string) =>
  c.request(OrderSchema, 'POST', `/orders/${path(orderId)}/cancel`, { auth: true });

/** The session's orders, newest first (a buying session: those it placed; a proven one: its client's). */
export const listOrders = (c: Client) => c.request(OrderListSchema, 'GET', '/orders', { auth: true });

export const getService = (c: Client, serviceId: string) => c.request(ServiceSchema, 'GET', `/services/${path(serviceId)}`, { auth: true });

export async function playlist(c: Client, serviceId: string): Promise<Blob> {
  const res = await c.send('GET', `/services/${path(serviceId)}/playlist.m3u`, {
    auth: true,
    headers: { Accept: 'audio/x-mpegurl, text/plain, */*' },
  });
  const text = await res.text();
  // A playlist always starts with #EXTM3U; anything else is not one.
  if (!text.trimStart().startsWith('#EXTM3U')) throw new ApiError('malformed', res.status, 'playlist: not an M3U file');
  return new Blob([text], { type: 'audio/x-mpegurl' });
}

/**
 * Downloads the service's playlist as "<username>.m3u": the file is saved through a hidden link in
 * `into` (the widget's shadow root), its object URL released once the browser has it.
 */
export async function downloadPlaylist(c: Client, s: { serviceId: string; username: string }, into: ParentNode | null): Promise<void> {
  saveBlob(await playlist(c, s.serviceId), `${s.username || 'playlist'}.m3u`, into);
}

/**
 * Saves a paid invoice's PDF as "<number>.pdf". The PDF opens only with the session's Authorization
 * header (a plain link would answer 404), so it is fetched here and handed over as an object URL.
 */
export async function downloadInvoice(c: Client, o: { invoiceId: string; invoiceNumber?: string | null }, into: ParentNode | null) {
  const res = await c.send('GET', `/invoices/${path(o.invoiceId)}.pdf`, { auth: true, headers: { Accept: 'application/pdf' } });
  saveBlob(new Blob([await res.arrayBuffer()], { type: 'application/pdf' }), `${o.invoiceNumber || 'invoice'}.pdf`, into);
}

/** Saves a credit note's PDF as "<number>.pdf", like downloadInvoice. */
export async function downloadCreditNote(c: Client, n: { id: string; number: string }, into: ParentNode | null) {
  const res = await c.send('GET', `/credit-notes/${path(n.id)}.pdf`, { auth: true, headers: { Accept: 'application/pdf' } });
  saveBlob(new Blob([await res.arrayBuffer()], { type: 'application/pdf' }), `${n.number || 'credit-note'}.pdf`, into);
}

function saveBlob(blob: Blob, name: string, into: ParentNode | null) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  into?.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const getPromotion = (c: Client, code: string, pid: number) =>
  c.request(PromotionSchema, 'GET', `/promotions/${encodeURIComponent(code)}`, { query: { pid } });

export const geo = (c: Client) => c.request(GeoSchema, 'GET', '/geo');
