// valibot schemas for every answer of the admin API (design/admin*.go, api/httpapi/openapi3.json).
// Every answer is parsed: a body that does not match becomes an ApiError named "malformed" instead
// of an exception deep in a screen. Unknown fields are dropped.
import * as v from 'valibot';

const int = v.pipe(v.number(), v.integer());

export const MoneySchema = v.object({ amount: int, currency: v.string() });
export type Money = v.InferOutput<typeof MoneySchema>;

export const ROLES = ['owner', 'support', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const ErrorBodySchema = v.object({
  name: v.string(),
  message: v.optional(v.string(), ''),
  problems: v.optional(v.array(v.object({ line: int, path: v.string(), message: v.string() })), []),
});

export const SessionSchema = v.object({
  operator: v.string(),
  role: v.picklist(ROLES),
  csrfToken: v.string(),
  expiresAt: v.string(),
  // Who bills the lines: in WHMCS mode WHMCS's cron owns due dates and prices, so the console
  // offers no extend or change (the server refuses them with 409 conflict).
  billing: v.optional(v.picklist(['builtin', 'whmcs']), 'builtin'),
});
export type Session = v.InferOutput<typeof SessionSchema>;

export const SetupSchema = v.object({ totpSecret: v.string(), otpauthUrl: v.string() });

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

export const ORDER_KINDS = ['plan', 'trial', 'renewal', 'upsell', 'reseller'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

export const OrderSchema = v.object({
  id: v.string(),
  kind: v.string(),
  product: v.string(),
  status: v.string(),
  email: v.string(),
  customerId: v.string(),
  total: MoneySchema,
  gateway: v.string(),
  invoiceId: v.string(),
  invoiceStatus: v.string(),
  promoCode: v.string(),
  createdAt: v.string(),
  paidAt: v.string(),
  refunded: MoneySchema,
  net: MoneySchema,
});
export type Order = v.InferOutput<typeof OrderSchema>;

export const ITEM_KINDS = ['plan', 'extra', 'proxy', 'discount', 'tax'] as const;
export const OrderItemSchema = v.object({
  kind: v.picklist(ITEM_KINDS),
  description: v.string(),
  /** The description's parts, the wording first (the design's AdminOrderItem.args), worded in the console's language (ui/serverText). */
  args: v.optional(v.array(v.string()), []),
  quantity: int,
  unitAmount: MoneySchema,
  amount: MoneySchema,
});
export type OrderItem = v.InferOutput<typeof OrderItemSchema>;

export const HoldSchema = v.object({
  rules: v.array(v.object({ rule: v.string(), value: v.string(), limit: v.string() })),
  ip: v.string(),
  country: v.string(),
  ordersFromIp: int,
});
export type Hold = v.InferOutput<typeof HoldSchema>;

export const LineSchema = v.object({
  serviceId: v.string(),
  orderId: v.string(),
  pid: int,
  name: v.string(),
  status: v.string(),
  username: v.string(),
  password: v.string(),
  expiresAt: v.string(),
  nextDueDate: v.string(),
});
export type Line = v.InferOutput<typeof LineSchema>;

export const SERVICE_STATUSES = ['Pending', 'Active', 'Overdue', 'Suspended', 'Cancelled', 'Terminated', 'Expired'] as const;

export const SubscriptionSchema = v.object({
  serviceId: v.string(),
  customer: v.object({ id: v.string(), email: v.string() }),
  pid: int,
  plan: v.string(),
  billingCycle: v.string(),
  maxConnections: int,
  status: v.string(),
  nextDueDate: v.string(),
  overdueDays: int,
  autoRenew: v.boolean(),
  renewsWithCard: v.boolean(),
  renewalInvoiceId: v.nullable(v.string()),
  /** Why the saved card did not pay the open renewal invoice; null when no charge of it failed. */
  renewalCardCharge: v.nullable(v.picklist(['declined', 'authentication_required', 'refused'])),
  recurringAmount: v.nullable(MoneySchema),
  username: v.string(),
  macAddress: v.string(),
});
export type Subscription = v.InferOutput<typeof SubscriptionSchema>;
export const SubscriptionListSchema = v.object({
  services: v.array(SubscriptionSchema),
  nextCursor: v.string(),
  /** WHMCS mode: WHMCS could not be read, so its lines on this page lack their next due date (absent otherwise). */
  dueDatesUnavailable: v.optional(v.boolean()),
});
export const RenewalLinkSchema = v.object({ sentTo: v.string(), invoiceId: v.string() });

export const CHARGES = ['now', 'next-renewal', 'free'] as const;
export type Charge = (typeof CHARGES)[number];
const TermsSchema = v.object({ pid: int, plan: v.string(), billingCycle: v.string(), maxConnections: int, nextDueDate: v.string() });
/** LineChangeSchema is POST /admin/services/{id}/change's answer, a preview's too. */
export const LineChangeSchema = v.object({
  changeId: v.string(),
  serviceId: v.string(),
  charge: v.picklist(CHARGES),
  preview: v.boolean(),
  applied: v.boolean(),
  from: TermsSchema,
  to: TermsSchema,
  amount: MoneySchema,
  daysLeft: int,
  periodDays: int,
  recurringAmount: MoneySchema,
  newRecurringAmount: MoneySchema,
  effect: v.string(),
  orderId: v.string(),
  invoiceId: v.string(),
  sentTo: v.string(),
});
export type LineChange = v.InferOutput<typeof LineChangeSchema>;

export const SETTING_SOURCES = ['default', 'environment', 'flag'] as const;
export const SettingSchema = v.object({
  name: v.string(),
  env: v.string(),
  flag: v.string(),
  value: v.string(),
  source: v.picklist(SETTING_SOURCES),
  secret: v.boolean(),
  description: v.string(),
});
export type Setting = v.InferOutput<typeof SettingSchema>;
export const SettingListSchema = v.object({ settings: v.array(SettingSchema) });

export const TimelineEventSchema = v.object({
  at: v.string(),
  kind: v.string(),
  summary: v.string(),
  outcome: v.string(),
  detail: v.string(),
  /** The summary's parts by kind (the design's AdminTimelineEvent.args), worded in the console's language. */
  args: v.array(v.string()),
});

export const OrderListSchema = v.object({ orders: v.array(OrderSchema), nextCursor: v.string(), gateways: v.array(v.string()) });
export const OrderDetailSchema = v.object({
  order: OrderSchema,
  kind: v.string(),
  items: v.array(OrderItemSchema),
  refunded: MoneySchema,
  net: MoneySchema,
  // A taxed order: the tax in its total and the total without it (absent without tax).
  tax: v.optional(v.object({ country: v.string(), rate: v.string(), amount: MoneySchema, pricesIncludeTax: v.boolean() })),
  beforeTax: v.optional(MoneySchema),
  hold: v.optional(HoldSchema),
  lines: v.array(LineSchema),
  timeline: v.array(TimelineEventSchema),
});
export type OrderDetail = v.InferOutput<typeof OrderDetailSchema>;

export const RefundSchema = v.object({
  orderId: v.string(),
  amount: MoneySchema,
  method: v.string(),
  reference: v.string(),
  reason: v.string(),
  note: v.string(),
  operator: v.string(),
  createdAt: v.string(),
  // The tax it gave back (a taxed order's listed refunds).
  tax: v.optional(MoneySchema),
});
export type Refund = v.InferOutput<typeof RefundSchema>;
export const RefundsSchema = v.object({ refunds: v.array(RefundSchema), refunded: MoneySchema });
export const RefundResultSchema = v.object({ order: OrderSchema, refund: RefundSchema, refunded: MoneySchema, replayed: v.boolean() });
export const RejectResultSchema = v.object({ order: OrderSchema, refund: v.optional(RefundSchema) });

export const PaymentSchema = v.object({
  id: v.string(),
  orderId: v.string(),
  provider: v.string(),
  transactionId: v.string(),
  amount: int,
  currency: v.string(),
  expected: MoneySchema,
  reason: v.string(),
  state: v.string(),
  refundable: v.boolean(),
  refundId: v.string(),
  reference: v.string(),
  refundError: v.string(),
  decidedBy: v.string(),
  createdAt: v.string(),
});
export type Payment = v.InferOutput<typeof PaymentSchema>;
export const PaymentListSchema = v.object({ payments: v.array(PaymentSchema) });
export const AcceptResultSchema = v.object({ payment: PaymentSchema, order: OrderSchema });

const CountSchema = v.object({ count: int, amount: MoneySchema });

export const DaySchema = v.object({
  date: v.string(),
  orders: int,
  paidRevenue: v.array(MoneySchema),
  refunded: v.array(MoneySchema),
  netRevenue: v.array(MoneySchema),
});
export type Day = v.InferOutput<typeof DaySchema>;

export const SummarySchema = v.object({
  from: v.string(),
  orders: int,
  paidRevenue: v.array(MoneySchema),
  refundedRevenue: v.array(MoneySchema),
  netRevenue: v.array(MoneySchema),
  newCustomers: int,
  failedPayments: int,
  activeLines: int,
  renewalsDue7d: int,
  heldOrders: int,
  failedJobs: int,
  deadJobs: int,
  failedMails: int,
  storedMails: int,
  moneyToReview: int,
  paidNotActive: int,
  series: v.array(DaySchema),
  mrr: MoneySchema,
  activeSubscriptions: int,
  churn30d: v.number(),
  renewalsDue: v.object({ days7: CountSchema, days30: CountSchema }),
  failedRenewals: int,
  refunds: CountSchema,
});
export type Summary = v.InferOutput<typeof SummarySchema>;

export const JobSchema = v.object({
  id: int,
  kind: v.string(),
  ref: v.string(),
  state: v.string(),
  attempts: int,
  runAt: v.string(),
  lastError: v.string(),
  updatedAt: v.string(),
});
export type Job = v.InferOutput<typeof JobSchema>;
export const JobListSchema = v.object({ jobs: v.array(JobSchema) });

export const CustomerSchema = v.object({
  id: v.string(),
  email: v.string(),
  createdAt: v.string(),
  orders: int,
  activeLines: int,
});
export type Customer = v.InferOutput<typeof CustomerSchema>;
export const CustomerListSchema = v.object({ customers: v.array(CustomerSchema) });
export const CustomerDetailSchema = v.object({
  customer: CustomerSchema,
  orders: v.array(OrderSchema),
  services: v.array(LineSchema),
  sessions: v.array(v.object({ id: v.string(), scope: v.string(), createdAt: v.string(), expiresAt: v.string() })),
});
export type CustomerDetail = v.InferOutput<typeof CustomerDetailSchema>;
export const SignoutSchema = v.object({ sessionsEnded: int });
export const SigninLinkSchema = v.object({ sentTo: v.string() });

export const MailSchema = v.object({
  id: int,
  to: v.string(),
  subject: v.string(),
  status: v.string(),
  attempts: int,
  lastError: v.string(),
  createdAt: v.string(),
  sentAt: v.string(),
});
export type Mail = v.InferOutput<typeof MailSchema>;
export const MailListSchema = v.object({ mails: v.array(MailSchema), nextCursor: v.string() });

export const WebhookSchema = v.object({
  id: int,
  provider: v.string(),
  eventId: v.string(),
  receivedAt: v.string(),
  processedAt: v.string(),
  outcome: v.string(),
  detail: v.string(),
  body: v.string(),
});
export type Webhook = v.InferOutput<typeof WebhookSchema>;
export const WebhookListSchema = v.object({ webhooks: v.array(WebhookSchema), nextCursor: v.string() });

export const CatalogVersionSchema = v.object({
  version: int,
  operator: v.string(),
  comment: v.string(),
  sha256: v.string(),
  createdAt: v.string(),
});
const PricesSchema = v.record(v.string(), v.record(v.string(), v.string()));
export const FormPlanSchema = v.object({
  pid: int,
  group: v.string(),
  name: v.string(),
  trial: v.boolean(),
  extras: v.boolean(),
  proxy: v.boolean(),
  prices: PricesSchema,
});
export const FormOptionSchema = v.object({ id: int, name: v.string(), maxQty: int, prices: PricesSchema });
export const FormPromotionSchema = v.object({
  code: v.string(),
  type: v.string(),
  value: v.string(),
  appliesTo: v.array(int),
  products: v.optional(v.array(v.string())),
  startDate: v.string(),
  expirationDate: v.string(),
  maxUses: int,
  recurring: v.boolean(),
  disabled: v.boolean(),
  status: v.optional(v.string()),
});
export const FormStorefrontSchema = v.object({
  key: v.string(),
  name: v.string(),
  default: v.optional(v.boolean()),
  defaultCurrency: v.string(),
  defaultLocale: v.string(),
  allowedOrigins: v.array(v.string()),
});
/** The catalog as the form edits it (GET /admin/catalog's form); POST /admin/catalog/draft takes it back. */
export const CatalogFormSchema = v.object({
  defaultCurrency: v.string(),
  currencies: v.array(v.string()),
  cycles: v.array(v.string()),
  plans: v.array(FormPlanSchema),
  extras: v.optional(FormOptionSchema),
  proxy: v.optional(FormOptionSchema),
  promotions: v.array(FormPromotionSchema),
  storefronts: v.array(FormStorefrontSchema),
});
export type CatalogForm = v.InferOutput<typeof CatalogFormSchema>;
export type FormOption = v.InferOutput<typeof FormOptionSchema>;
export const CatalogSchema = v.object({
  version: CatalogVersionSchema,
  source: v.string(),
  published: v.optional(v.boolean(), true),
  form: v.optional(CatalogFormSchema),
});
export const CatalogDraftSchema = v.object({ source: v.string(), diff: v.string(), base: v.string() });
export const CatalogCheckSchema = v.object({ ok: v.boolean() });
export const CatalogVersionsSchema = v.object({ versions: v.array(CatalogVersionSchema) });

export const PROMO_TYPES = ['Percentage', 'Fixed Amount'] as const;
export const PromotionSchema = v.object({
  code: v.string(),
  type: v.string(),
  value: v.string(),
  /** A Fixed Amount's value in minor units and the catalog's default currency. */
  amount: v.optional(MoneySchema),
  appliesTo: v.array(int),
  startDate: v.string(),
  expirationDate: v.string(),
  maxUses: int,
  recurring: v.boolean(),
  disabled: v.boolean(),
  uses: int,
  products: v.optional(v.array(v.string()), []),
  status: v.optional(v.string(), 'active'),
});
export type Promotion = v.InferOutput<typeof PromotionSchema>;
export const PromotionListSchema = v.object({ promotions: v.array(PromotionSchema) });

export const AuditEntrySchema = v.object({
  id: int,
  at: v.string(),
  operator: v.string(),
  customerId: v.string(),
  action: v.string(),
  target: v.string(),
  result: v.string(),
  detail: v.string(),
  /** The client address of a refused console sign-in; empty otherwise. */
  ip: v.string(),
  /** The detail's parts when the server wrote it in English, the wording first (AdminAuditEntry.args); empty otherwise. */
  args: v.optional(v.array(v.string()), []),
});
export type AuditEntry = v.InferOutput<typeof AuditEntrySchema>;
export const AuditListSchema = v.object({ entries: v.array(AuditEntrySchema), nextCursor: v.string() });

/** One drift the panel reconciliation found (design/admin_panel.go AdminLineDrift); kind and action stay strings so a newer server's words still show. */
export const LineDriftSchema = v.object({
  id: int,
  at: v.string(),
  runId: v.string(),
  /** Empty for an unexplained panel line (no service explains it). */
  serviceId: v.string(),
  username: v.string(),
  kind: v.string(),
  want: v.string(),
  found: v.string(),
  action: v.string(),
  error: v.string(),
});
export type LineDrift = v.InferOutput<typeof LineDriftSchema>;
export const LineDriftListSchema = v.object({ drifts: v.array(LineDriftSchema), nextCursor: v.string() });

/** The panel's reseller credits as the shop last read them: the console's low-credit banner. */
export const PanelCreditsSchema = v.object({
  known: v.boolean(),
  balance: v.number(),
  alert: v.number(),
  low: v.boolean(),
  unavailable: v.array(v.string()),
});
export type PanelCredits = v.InferOutput<typeof PanelCreditsSchema>;

export const OperatorSchema = v.object({
  email: v.string(),
  role: v.string(),
  status: v.string(),
  createdAt: v.string(),
  disabledAt: v.string(),
});
export type Operator = v.InferOutput<typeof OperatorSchema>;
export const OperatorListSchema = v.object({ operators: v.array(OperatorSchema) });
export const InviteSchema = v.object({ operator: OperatorSchema, setupUrl: v.string(), expiresAt: v.string() });
