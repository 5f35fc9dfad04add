// The schemas of the answers the widget reads after the plan cards paint (the checkout form, the
// order and after-sale pages). The script-tag builds ship them in dist/checkout.js, not in the
// first script (api/later.ts).
import { minLength, picklist, union } from 'valibot';
import { array, boolean, nullish, number, object, optional, pipe, string } from './valibot';
import { id, int, MoneySchema } from './primitives';

export const CurrencySchema = object({
  code: string(),
  rate: string(),
  prefix: optional(string(), ''),
  suffix: optional(string(), ''),
});

export const CurrencyListSchema = object({
  currencies: array(CurrencySchema),
  default: string(),
});

export const GatewayListSchema = object({
  gateways: array(object({ module: string(), displayName: string() })),
  default: string(),
});

export const PromotionSchema = object({
  code: string(),
  type: string(),
  value: union([string(), number()]),
  appliesTo: optional(array(int), []),
});

export const QuoteSchema = object({
  extraConnections: optional(int),
  lines: array(object({ key: optional(string(), ''), label: string(), amount: MoneySchema })),
  subtotal: optional(MoneySchema),
  discount: nullish(object({ code: string(), type: string(), value: union([string(), number()]), amount: MoneySchema })),
  total: MoneySchema,
});

export const SessionSchema = object({
  token: pipe(string(), minLength(1)),
  // An opaque usr_… id since issue 12 (once a decimal number): compared, never parsed.
  userId: string(),
  email: string(),
  scope: optional(string(), 'email'),
});

export const GeoSchema = object({ ip: string(), country: string() });

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

export const OrderSchema = object({
  orderId: id,
  invoiceId: optional(id, ''),
  status: picklist(ORDER_STATUSES),
  fraud: optional(boolean(), false),
  serviceIds: optional(array(id), []),
  total: MoneySchema,
  paymentUrl: optional(string(), ''),
  paymentDeadline: optional(string(), ''),
  // What a crypto gateway asks in its own currency (Coinbase: USDC), converted when its link was made.
  paymentQuote: optional(object({ amount: string(), currency: string(), network: string(), rate: string(), rateTakenAt: string() })),
});

export const ServiceSchema = object({
  serviceId: id,
  name: string(),
  status: string(),
  username: optional(string(), ''),
  password: optional(string(), ''),
  serverHostname: optional(string(), ''),
  maxConnections: optional(int, 1),
  billingCycle: optional(string(), ''),
  nextDueDate: optional(string(), ''),
  playlistUrl: optional(string(), ''),
  macAddress: optional(string(), ''),
  expiresAt: optional(string(), ''),
  trial: optional(boolean(), false),
  pid: optional(int, 0),
  // Renewals (issue 13): absent from an older server, so nothing renews there.
  autoRenew: optional(boolean(), false),
  renewsWithCard: optional(boolean(), false),
  renewalInvoiceId: nullish(string()),
  renewalOrderId: nullish(string()),
  recurringAmount: nullish(MoneySchema),
});
