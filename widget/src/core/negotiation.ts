// Which language and currency the widget shows. Language: the page's attribute, the buyer's
// earlier choice (cookie), the URL's prefix, else the browser's languages until the storefront's
// default replaces them. Currency: the attribute, the buyer's choice in this tab, else the
// storefront's default.
import type { Product } from '../api/schemas';
import { normalizeLocale, type LocaleCode } from '../i18n/locale';
import type { Prefix } from './router';

/** An ISO 4217 code's shape (the API names the currencies it knows). */
export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code);
}

/**
 * The currency a page starts in. No attribute: the buyer's earlier choice in this tab, else on the
 * plan page '' — the products are asked for without one, so the server answers in the storefront's
 * default currency and no other price is ever shown — until that answer (or the storefront's)
 * names it. Elsewhere EUR until the storefront answers.
 */
export function initialCurrency(attribute: string | null, chosen: string | null, plansFirst: boolean): string {
  if (attribute) return attribute.toUpperCase();
  return chosen ?? (plansFirst ? '' : 'EUR');
}

/** The currency a product list is priced in ('' when it has no price at all). */
export function answerCurrency(list: { products: Product[] }): string {
  for (const p of list.products) for (const price of Object.values(p.pricing)) return price.currency.toUpperCase();
  return '';
}

/**
 * The buyer's own currency choice (setCurrency), kept for the tab per storefront key: the trip to
 * the payment page reloads the host page, and a page without a currency attribute would start
 * again in the storefront's default. `code` stores it; without, the stored one (null: none, or no
 * storage in this frame).
 */
export function chosenCurrency(store: string | null, code?: string): string | null {
  const key = `streamcart:currency:${store ?? ''}`;
  try {
    if (code) sessionStorage.setItem(key, code);
    const v = sessionStorage.getItem(key);
    return v && isCurrencyCode(v) ? v : null;
  } catch {
    return null;
  }
}

export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/** Neither the page, the buyer nor the URL chose a language: the storefront's default may replace the guess. */
export function localeFollowsStorefront(attribute: string | null, cookie: string | null, prefix: Prefix | null): boolean {
  return !normalizeLocale(attribute) && !normalizeLocale(cookie) && !prefix;
}

/**
 * The storefront's default language when it should replace `current`; null when it should not. The
 * buyer's own regional variant of that language (en-us for en) stays.
 */
export function storefrontLocale(current: LocaleCode, storefrontDefault: string): LocaleCode | null {
  const wanted = normalizeLocale(storefrontDefault);
  return wanted && wanted.slice(0, 2) !== current.slice(0, 2) ? wanted : null;
}
