import { afterEach, describe, expect, it } from 'vitest';
import type { Product } from '../api/schemas';
import { answerCurrency, chosenCurrency, initialCurrency, isCurrencyCode, localeFollowsStorefront, storefrontLocale } from './negotiation';

afterEach(() => sessionStorage.clear());

describe('currency negotiation', () => {
  it('starts in the attribute, else the buyer’s choice, else the server’s answer on the plan page, else EUR', () => {
    expect(initialCurrency('usd', 'GBP', true)).toBe('USD');
    expect(initialCurrency(null, 'GBP', false)).toBe('GBP');
    expect(initialCurrency(null, null, true)).toBe('');
    expect(initialCurrency(null, null, false)).toBe('EUR');
  });

  it('keeps the buyer’s choice per storefront key for the tab, ignoring what is not a code', () => {
    expect(chosenCurrency('shop-a')).toBeNull();
    expect(chosenCurrency('shop-a', 'USD')).toBe('USD');
    expect(chosenCurrency('shop-a')).toBe('USD');
    expect(chosenCurrency('shop-b')).toBeNull();
    sessionStorage.setItem('streamcart:currency:', 'usd');
    expect(chosenCurrency(null)).toBeNull();
  });

  it('reads the currency a product list is priced in', () => {
    const priced = { pricing: { monthly: { amount: 999, currency: 'usd' } } } as unknown as Product;
    const free = { pricing: {} } as unknown as Product;
    expect(answerCurrency({ products: [free, priced] })).toBe('USD');
    expect(answerCurrency({ products: [free] })).toBe('');
  });

  it('takes only ISO 4217-shaped codes', () => {
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('eur')).toBe(false);
    expect(isCurrencyCode('EURO')).toBe(false);
  });
});

describe('locale negotiation', () => {
  it('lets the storefront choose only when neither the page, the buyer nor the URL did', () => {
    expect(localeFollowsStorefront(null, null, null)).toBe(true);
    expect(localeFollowsStorefront('de-de', null, null)).toBe(false);
    expect(localeFollowsStorefront(null, 'nl-nl', null)).toBe(false);
    expect(localeFollowsStorefront(null, null, 'es-es')).toBe(false);
    // What is not a language does not count as a choice.
    expect(localeFollowsStorefront('klingon', 'xx', null)).toBe(true);
  });

  it('switches to the storefront’s language, keeping the buyer’s regional variant of it', () => {
    expect(storefrontLocale('en-us', 'de-de')).toBe('de-de');
    expect(storefrontLocale('en-gb', 'en-us')).toBeNull();
    expect(storefrontLocale('en-us', 'nonsense')).toBeNull();
  });
});
