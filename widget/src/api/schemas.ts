// valibot schemas for every response of the API contract. Unknown fields are dropped; fields the
// widget can live without get defaults so that an older or newer server still works.
//
// Here: what the plan cards need (the catalog, the storefront, error bodies). The answers after them
// are parsed with schemas.later.ts, which the script-tag builds ship in dist/checkout.js (see later.ts).
import * as v from 'valibot';
import { int, MoneySchema } from './primitives';
import type {
  CurrencyListSchema,
  CurrencySchema,
  GatewayListSchema,
  GeoSchema,
  OrderSchema,
  PromotionSchema,
  QuoteSchema,
  ServiceSchema,
  SessionSchema,
} from './schemas.later';

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
});

export const ErrorBodySchema = v.object({
  name: v.string(),
  message: v.optional(v.string(), ''),
  quote: v.optional(v.unknown()),
});

export type Product = v.InferOutput<typeof ProductSchema>;
export type ConfigOption = v.InferOutput<typeof ConfigOptionSchema>;
export type Currency = v.InferOutput<typeof CurrencySchema>;
export type CurrencyList = v.InferOutput<typeof CurrencyListSchema>;
export type GatewayList = v.InferOutput<typeof GatewayListSchema>;
export type Promotion = v.InferOutput<typeof PromotionSchema>;
export type Quote = v.InferOutput<typeof QuoteSchema>;
export type Session = v.InferOutput<typeof SessionSchema>;
export type Geo = v.InferOutput<typeof GeoSchema>;
export type Storefront = v.InferOutput<typeof StorefrontSchema>;
export type Order = v.InferOutput<typeof OrderSchema>;
export type Service = v.InferOutput<typeof ServiceSchema>;
