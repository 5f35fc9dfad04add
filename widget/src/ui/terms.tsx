// What the buyer is told before paying: what is charged today, what renews and for how much, what
// a trial or a one-time plan does at its end, savings against the monthly price, and the consent
// line at Pay with the terms' link. Only the checkout and after-sale chunks import it (the plan cards
// show CardTerms once the checkout chunk is there): none of it weighs on the first paint. Its CSS is
// in ui/components.css, which the screens showing it (the checkout form, the reseller page) add.
import type { ReactNode } from 'react';
import * as v from 'valibot';
import { int, isCycle, MoneySchema, QuoteSchema, type Cycle, type Money, type Product } from '../api/schemas';
import { useMemo } from 'react';
import { TaxSchema, type Tax } from '../api/orders';
import { useCheckout } from './context';
import { useTexts } from './texts';

// The fields of the checkout's disclosure, read here rather than by the first script's schemas
// (api/schemas.ts), whose every byte is on the first paint.

export type { Tax };

/**
 * POST /quote with `recurring`: each next period's price, null when nothing renews (absent from an
 * older server); `net` and `tax`: the total without tax and the tax in it, tax null without a tax block.
 */
export const CheckoutQuoteSchema = v.object({
  ...QuoteSchema.entries,
  recurring: v.nullish(v.object({ amount: int, currency: v.string(), billingCycle: v.string() })),
  net: v.optional(MoneySchema),
  tax: v.nullish(TaxSchema),
});
export type CheckoutQuote = v.InferOutput<typeof CheckoutQuoteSchema>;

/** What GET /storefront says about the terms: legal pages by name (when the API has them), the consent box, the support site. */
const StoreTermsSchema = v.object({
  supportUrl: v.optional(v.string(), ''),
  legal: v.optional(v.record(v.string(), v.unknown()), {}),
  consent: v.optional(v.object({ checkbox: v.optional(v.boolean(), false) }), { checkbox: false }),
});
export type StoreTerms = v.InferOutput<typeof StoreTermsSchema>;

/** The storefront's terms, from the element's GET /storefront (null until it has answered or when malformed). */
export function useStoreTerms(): StoreTerms | null {
  const store = useCheckout((s) => s.storefront);
  const parsed = useMemo(() => (store ? v.safeParse(StoreTermsSchema, store) : null), [store]);
  return parsed?.success ? parsed.output : null;
}

export interface Renewal {
  kind: 'renews' | 'once' | 'trial';
  /** What each next period costs (kind "renews"). */
  amount?: Money;
  cycle?: Cycle;
}

/** Months a cycle lasts; 0 for a one-time payment. */
export const MONTHS: Record<Cycle, number> = {
  monthly: 1,
  quarterly: 3,
  semiannually: 6,
  annually: 12,
  biennially: 24,
  triennially: 36,
  onetime: 0,
};

function noRenewal(product: Product): Renewal {
  return { kind: product.trial ? 'trial' : 'once' };
}

/**
 * What renews after the period paid now. The server's quote says it (`recurring`); without the
 * field (an older server), the plan's own rule: a trial ends, a one-time plan or reseller credits do not
 * renew, anything else renews at the subtotal (a promotion is for the first period unless told).
 */
export function renewalOf(
  product: Product,
  cycle: Cycle | null,
  quote: (Omit<CheckoutQuote, 'recurring'> & Partial<Pick<CheckoutQuote, 'recurring'>>) | null,
): Renewal {
  if (product.trial || !cycle || !MONTHS[cycle] || product.group === 'reseller') return noRenewal(product);
  const r = quote?.recurring;
  if (r !== undefined) {
    return r && isCycle(r.billingCycle)
      ? { kind: 'renews', amount: { amount: r.amount, currency: r.currency }, cycle: r.billingCycle }
      : noRenewal(product);
  }
  const amount = quote ? (quote.subtotal ?? quote.total) : product.pricing[cycle];
  return amount ? { kind: 'renews', amount, cycle } : noRenewal(product);
}

/**
 * The saving of a cycle against paying monthly over the same months, in whole percent (rounded
 * down: never more than it is); null when there is no monthly price to compare with, or no saving.
 */
export function savingOf(product: Product, cycle: Cycle): { pct: number; months: number; monthly: Money } | null {
  const months = MONTHS[cycle];
  const monthly = product.pricing.monthly;
  const price = product.pricing[cycle];
  if (months < 2 || !monthly || !price || monthly.amount <= 0 || monthly.currency !== price.currency) return null;
  const pct = Math.floor((1 - price.amount / (monthly.amount * months)) * 100);
  return pct >= 1 ? { pct, months, monthly } : null;
}

/** The price of one month of a cycle, in minor units rounded to the nearest. */
export function perMonth(price: Money, cycle: Cycle): Money | null {
  const months = MONTHS[cycle];
  return months > 1 ? { amount: Math.round(price.amount / months), currency: price.currency } : null;
}

/** An absolute http(s) URL, or "". */
function safeUrl(u: string): string {
  try {
    const url = new URL(u, location.href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : '';
  } catch {
    return '';
  }
}

/** The URL of the terms: the storefront's `legal.terms` when the API names one, else the support site's #terms. */
export function termsUrl(store: StoreTerms | null): string {
  const terms = store?.legal.terms;
  return (typeof terms === 'string' && safeUrl(terms)) || (store?.supportUrl ? safeUrl(`${store.supportUrl.split('#')[0]}#terms`) : '');
}

/** The sentence under a total or a plan's price: what renews, or what happens at the end. */
export function useRenewalText() {
  const { t, money } = useTexts('checkout');
  return (r: Renewal, today?: Money): string => {
    if (r.kind === 'trial') return t.trialEnds;
    if (r.kind === 'once' || !r.amount || !r.cycle) return t.noRenewal;
    const every = t.renewEvery[r.cycle];
    return today ? t.cardRenews(money(today), money(r.amount), every) : t.thenEvery(money(r.amount), every);
  };
}

/**
 * A plan card's terms, under its features: what is charged today and what renews, and its saving
 * against the monthly price (named as such) when there is one.
 */
export function CardTerms({ product, cycle }: { product: Product; cycle: Cycle | null }) {
  const { t, money } = useTexts('checkout');
  const text = useRenewalText();
  const price = cycle ? product.pricing[cycle] : undefined;
  const r = renewalOf(product, cycle, null);
  const save = cycle && !product.trial ? savingOf(product, cycle) : null;
  return (
    <p className="sc-plan-terms" data-testid="plan-terms">
      {save && (
        <span className="sc-badge sc-badge-save" data-testid="plan-save">
          {t.saveVsMonthly(save.pct, save.months, money(save.monthly))}
        </span>
      )}
      <span>{r.kind === 'renews' && price ? text(r, price) : text(r)}</span>
    </p>
  );
}

/** The consent line at Pay: the terms (linked when there is an address) and what renews. */
export function consentParts(r: Renewal, terms: ReactNode, t: ReturnType<typeof useTexts<'checkout'>>['t'], money: (m: Money) => string) {
  if (r.kind === 'trial') return t.consentTrial(terms);
  if (r.kind === 'once' || !r.amount || !r.cycle) return t.consentOnce(terms);
  return t.consentRenews(terms, money(r.amount), t.renewEvery[r.cycle]);
}

/** The terms' name, a link when the storefront has an address for them. */
export function TermsLink() {
  const { t } = useTexts('checkout');
  const url = termsUrl(useStoreTerms());
  return url ? (
    <a href={url} target="_blank" rel="noopener noreferrer" data-testid="terms-link">
      {t.termsName}
    </a>
  ) : (
    <>{t.termsName}</>
  );
}
