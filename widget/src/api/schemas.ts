// valibot schemas for the catalog answers the plan page reads (an order's, a service's and a
// session's are in api/orders.ts, the after-sale screens' in api/aftersale.ts). Unknown
// fields are dropped; fields the widget can live without get defaults so that an older or newer
// server still works.
import * as v from 'valibot';
import { int, MoneySchema } from './primitives';

export const CYCLES = ['monthly', 'quarterly', 'semiannually', 'annually', 'biennially', 'triennially', 'onetime'] as const;
export type Cycle = (typeof CYCLES)[number];

export { int, MoneySchema, type Money } from './primitives';

export function isCycle(c: string): c is Cycle {
  return (CYCLES as readonly string[]).includes(c);
}

// A cycle this widget does not know is left out rather than failing the whole catalog.
const CyclesSchema = v.pipe(
  v.array(v.string()),
  v.transform((cycles) => cycles.filter(isCycle)),
);
const PricingSchema = v.record(v.string(), MoneySchema);

export const ConfigOptionSchema = v.object({
  id: int,
  name: v.string(),
  type: v.string(),
  maxQty: v.optional(int, 0),
  pricing: PricingSchema,
});

export const CustomFieldSchema = v.object({
  id: int,
  name: v.string(),
  type: v.optional(v.string(), 'text'),
  required: v.optional(v.boolean(), false),
});

export const ProductSchema = v.object({
  pid: int,
  name: v.string(),
  description: v.optional(v.string(), ''),
  features: v.optional(v.array(v.string()), []),
  trial: v.optional(v.boolean(), false),
  group: v.optional(v.string(), 'plan'),
  cycles: CyclesSchema,
  pricing: PricingSchema,
  configOptions: v.optional(v.array(ConfigOptionSchema), []),
  customFields: v.optional(v.array(CustomFieldSchema), []),
  saveBadge: v.optional(v.string(), ''),
  soldBadge: v.optional(v.string(), ''),
  guarantee: v.optional(v.string(), ''),
  credits: v.optional(int, 0),
  // false while the panel's credits cannot cover the plan: shown, not orderable (409 out_of_stock).
  available: v.optional(v.boolean(), true),
});

export const ProductListSchema = v.object({ products: v.array(ProductSchema) });

export const StorefrontSchema = v.object({
  name: v.optional(v.string(), ''),
  key: v.optional(v.string(), ''),
  logo: v.optional(v.string(), ''),
  theme: v.optional(v.record(v.string(), v.string()), {}),
  defaultLocale: v.optional(v.string(), ''),
  defaultCurrency: v.optional(v.string(), 'EUR'),
  plans: v.optional(v.array(int), []),
  apps: v.optional(v.array(v.object({ name: v.string(), platform: v.string(), url: v.string(), icon: v.optional(v.string(), '') })), []),
  cards: v.optional(v.array(v.object({ title: v.string(), text: v.string(), url: v.string(), icon: v.optional(v.string(), '') })), []),
  dashboardUrl: v.optional(v.string(), ''),
  supportUrl: v.optional(v.string(), ''),
  // Read by the checkout chunk (ui/terms.tsx checks their shape there): legal pages by name, the consent box.
  legal: v.optional(v.unknown()),
  consent: v.optional(v.unknown()),
});

export const ErrorBodySchema = v.object({
  name: v.string(),
  message: v.optional(v.string(), ''),
  quote: v.optional(v.unknown()),
});

export const CurrencySchema = v.object({
  code: v.string(),
  rate: v.string(),
  prefix: v.optional(v.string(), ''),
  suffix: v.optional(v.string(), ''),
});

export const CurrencyListSchema = v.object({
  currencies: v.array(CurrencySchema),
  default: v.string(),
});

export const GatewayListSchema = v.object({
  gateways: v.array(v.object({ module: v.string(), displayName: v.string() })),
  default: v.string(),
});

export const QuoteSchema = v.object({
  extraConnections: v.optional(int),
  lines: v.array(v.object({ key: v.optional(v.string(), ''), label: v.string(), amount: MoneySchema })),
  subtotal: v.optional(MoneySchema),
  discount: v.nullish(v.object({ code: v.string(), type: v.string(), value: v.union([v.string(), v.number()]), amount: MoneySchema })),
  total: MoneySchema,
});

export type Product = v.InferOutput<typeof ProductSchema>;
export type ConfigOption = v.InferOutput<typeof ConfigOptionSchema>;
export type Currency = v.InferOutput<typeof CurrencySchema>;
export type CurrencyList = v.InferOutput<typeof CurrencyListSchema>;
export type GatewayList = v.InferOutput<typeof GatewayListSchema>;
export type Quote = v.InferOutput<typeof QuoteSchema>;
export type Storefront = v.InferOutput<typeof StorefrontSchema>;
