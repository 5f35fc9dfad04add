import { beforeAll, describe, expect, it } from 'vitest';
import { formatDate, formatMoney } from './format';
import { minorDigits } from './minor';
import { formatDecimalMoney, toDefaultCurrency } from './amounts';
import { LOCALES, matchBrowserLanguage, normalizeLocale, resolveLocale, type LocaleCode } from './locale';
import { AREAS, loadTexts, tableOf, type Area } from './messages';

type Tree = { [k: string]: unknown };

const table = (code: LocaleCode, area: Area) => tableOf(code, area) as unknown as Tree;

beforeAll(() => Promise.all(LOCALES.map((code) => loadTexts(code, AREAS))));

/** Every leaf path with the kind of value (string, function of n args, array of n). */
function shape(t: Tree, prefix = ''): string[] {
  return Object.entries(t).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') return [`${path}:string`];
    if (typeof v === 'function') return [`${path}:fn${v.length}`];
    if (Array.isArray(v)) return [`${path}:array${v.length}`];
    return shape(v as Tree, path);
  });
}

function strings(t: Tree): [string, string][] {
  return Object.entries(t).flatMap(([k, v]): [string, string][] => {
    if (typeof v === 'string') return [[k, v]];
    if (typeof v === 'function') return [[k, String((v as (...a: unknown[]) => string)('X', 'Y', 'Z'))]];
    if (Array.isArray(v)) return v.map((s, i) => [`${k}.${i}`, String(s)]);
    return strings(v as Tree).map(([p, s]) => [`${k}.${p}`, s]);
  });
}

const EVERY = LOCALES.flatMap((code) => AREAS.map((area) => [code, area] as const));

describe('text tables', () => {
  it.each(EVERY)('%s %s has every key of en with the same shape, none empty', (code, area) => {
    expect(shape(table(code, area)).sort()).toEqual(shape(table('en', area)).sort());
    for (const [key, text] of strings(table(code, area))) expect(text.trim(), `${code} ${area} ${key}`).not.toBe('');
  });

  it('keeps every shared error in the checkout’s errors, which replace them on its screens', () => {
    for (const code of LOCALES) {
      const plans = table(code, 'plans').errors as Record<string, string>;
      const checkout = table(code, 'checkout').errors as Record<string, string>;
      for (const [name, text] of Object.entries(plans)) expect(checkout[name], `${code} ${name}`).toBe(text);
    }
  });

  it('splits the areas without a key in two of them (a screen merges plans with its own)', () => {
    const seen = new Map<string, Area>();
    for (const area of AREAS)
      for (const key of Object.keys(table('en', area))) {
        // The after-sale table is apart (a), its errors are those of its own API calls; the
        // checkout's errors are the plan page's with the checkout's own added (and replace them).
        // What renews (i18n/<code>/renewal.ts) is in the checkout's table and the order's, the same
        // value: merged, either gives the same.
        const same =
          seen.has(key) &&
          (table('en', seen.get(key)!) as Record<string, unknown>)[key] === (table('en', area) as Record<string, unknown>)[key];
        if (area !== 'aftersale' && !(area === 'checkout' && key === 'errors') && !same) expect(seen.get(key), key).toBeUndefined();
        seen.set(key, area);
      }
  });

  // Words that are the same in these languages (or are codes, not words).
  const SAME = new Set([
    'approx',
    'rate',
    'status',
    'total',
    'subtotal',
    'plan',
    'credits',
    'server',
    'statuses.Pending',
    'errors.malformed',
    // after-sale: "No" is Spanish too
    'no',
  ]);

  const TRANSLATED = EVERY.filter(([code]) => !code.startsWith('en'));
  it.each(TRANSLATED)('%s %s leaves no English sentence untranslated', (code, area) => {
    const english = new Map(strings(table('en', area)));
    const left = strings(table(code, area)).filter(([k, s]) => !SAME.has(k) && english.get(k) === s && /[a-z]{3}/.test(s));
    expect(left).toEqual([]);
  });

  it('keeps the exact messages of the spec in English', () => {
    const en = tableOf('en', 'plans');
    // The checkout's own errors load with the checkout, not in the first paint.
    expect(tableOf('en', 'checkout').errors.invalid_email).toBe('Please enter a Valid Email.');
    expect(tableOf('en', 'checkout').errors.not_applicable).toBe('This Coupon is not available for this product.');
    expect(tableOf('en', 'order').copied).toBe('Copied!');
    expect(en.notFound).toBe('This page could not be found');
    expect(en.backHome).toBe('Back to the home page');
    for (const code of ['en', 'en-us', 'en-gb'] as const)
      expect(tableOf(code, 'checkout').errors.invalid_email).toBe('Please enter a Valid Email.');
    expect(tableOf('en', 'aftersale').errors.password_mismatch).toBe('Not the same password');
  });

  it('uses regional spelling for en-us and en-gb', () => {
    expect(tableOf('en-us', 'order').setupSteps[2]).toContain('favorite');
    expect(tableOf('en-gb', 'order').setupSteps[2]).toContain('favourite');
    expect(tableOf('en-gb', 'checkout').customize).toBe('Customise your plan');
  });
});

describe('locale resolution', () => {
  it('prefers the attribute, then the browserLang cookie, then the URL prefix, then the browser, then en', () => {
    expect(resolveLocale({ attribute: 'es-es', cookie: 'de-de', prefix: 'nl-nl', languages: ['pt-PT'] })).toBe('es-es');
    expect(resolveLocale({ cookie: 'de-de', prefix: 'nl-nl', languages: ['pt-PT'] })).toBe('de-de');
    expect(resolveLocale({ prefix: 'nl-nl', languages: ['pt-PT'] })).toBe('nl-nl');
    expect(resolveLocale({ languages: ['fr-FR', 'pt-BR'] })).toBe('pt-pt');
    expect(resolveLocale({ languages: ['fr-FR'] })).toBe('en');
    expect(resolveLocale({ attribute: 'klingon', cookie: 'nope', languages: ['en-GB'] })).toBe('en-gb');
  });

  it('normalizes codes', () => {
    expect(normalizeLocale('en-en')).toBe('en');
    expect(normalizeLocale('DE_de')).toBe('de-de');
    expect(normalizeLocale('fr-fr')).toBeNull();
    expect(matchBrowserLanguage('en-US')).toBe('en-us');
    expect(matchBrowserLanguage('en-AU')).toBe('en');
    expect(matchBrowserLanguage('nl-BE')).toBe('nl-nl');
  });
});

describe('formatting', () => {
  it('formats minor units with Intl for the locale', () => {
    expect(formatMoney({ amount: 1299, currency: 'EUR' }, 'en')).toBe('€12.99');
    expect(formatMoney({ amount: 1299, currency: 'EUR' }, 'de-de')).toBe('12,99\u00a0€');
    expect(formatMoney({ amount: 1299, currency: 'GBP' }, 'en-gb')).toBe('£12.99');
    expect(formatMoney({ amount: 1299, currency: 'USD' }, 'nl-nl')).toBe('US$\u00a012,99');
    expect(formatMoney({ amount: 500, currency: 'JPY' }, 'en')).toBe('¥500');
  });

  // The server's minor units (api/money, ISO 4217): 0 decimals for JPY, 2 for EUR/USD, 3 for KWD.
  // These are the amounts of api/app's TestMoneyInEveryCurrency (plan 3 at 15.99 EUR).
  it("reads minor units with each currency's own decimals", () => {
    expect([minorDigits('JPY'), minorDigits('EUR'), minorDigits('USD'), minorDigits('KWD')]).toEqual([0, 2, 2, 3]);
    expect(formatMoney({ amount: 2558, currency: 'JPY' }, 'en')).toBe('¥2,558');
    expect(formatMoney({ amount: 2558, currency: 'JPY' }, 'de-de')).toBe('2.558\u00a0¥');
    expect(formatMoney({ amount: 1599, currency: 'EUR' }, 'en')).toBe('€15.99');
    expect(formatMoney({ amount: 1699, currency: 'USD' }, 'en-us')).toBe('$16.99');
    expect(formatMoney({ amount: 5350, currency: 'KWD' }, 'en')).toBe('KWD\u00a05.350');
    expect(formatMoney({ amount: 4345, currency: 'KWD' }, 'de-de')).toBe('4,345\u00a0KWD');
  });

  it("formats a fixed promotion written in the default currency's units", () => {
    expect(formatDecimalMoney(5, 'EUR', 'en')).toBe('€5.00');
    expect(formatDecimalMoney(500, 'JPY', 'en')).toBe('¥500');
    expect(formatDecimalMoney(1.25, 'KWD', 'en')).toBe('KWD\u00a01.250');
  });

  it('formats calendar dates without shifting the day', () => {
    expect(formatDate('2030-02-01', 'en')).toBe('February 1, 2030');
    expect(formatDate('2030-02-01', 'de-de')).toBe('1. Februar 2030');
    expect(formatDate('2030-02-01', 'pt-pt')).toBe('1 de fevereiro de 2030');
  });

  it('converts to the default currency with the catalog rate', () => {
    expect(toDefaultCurrency({ amount: 1403, currency: 'USD' }, '1.08', 'EUR')).toEqual({ amount: 1299, currency: 'EUR' });
    expect(toDefaultCurrency({ amount: 100, currency: 'USD' }, 'x', 'EUR')).toBeNull();
    expect(toDefaultCurrency({ amount: 2558, currency: 'JPY' }, '160', 'EUR')).toEqual({ amount: 1599, currency: 'EUR' });
    expect(toDefaultCurrency({ amount: 5350, currency: 'KWD' }, '0.3346', 'EUR')).toEqual({ amount: 1599, currency: 'EUR' });
  });
});

// The reseller password is the reseller panel account's and never the shop's sign-in password
// (design/reseller.go, docs/api.md): the hint under it says so in every locale. It said "It also
// signs you in to manage your account".
describe('the reseller password hint', () => {
  it.each<[LocaleCode, RegExp]>([
    ['en', /not your sign-in password for this shop/],
    ['en-us', /not your sign-in password for this shop/],
    ['en-gb', /not your sign-in password for this shop/],
    ['de-de', /nicht Ihr Anmeldepasswort für diesen Shop/],
    ['es-es', /no es tu contraseña para iniciar sesión en esta tienda/],
    ['nl-nl', /niet je inlogwachtwoord voor deze winkel/],
    ['pt-pt', /não é a sua palavra-passe de início de sessão nesta loja/],
  ])('%s says it is not the sign-in password', (code, says) => {
    const hint = (table(code, 'aftersale') as { passwordHint: string }).passwordHint;
    expect(hint).toMatch(says);
    expect(hint).toMatch(/reseller|revendedor/i);
  });
});
