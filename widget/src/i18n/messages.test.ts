import { describe, expect, it } from 'vitest';
import { en } from './en';
import { formatDate, formatDecimalMoney, formatMoney, minorDigits, toDefaultCurrency } from './format';
import { LOCALES, matchBrowserLanguage, normalizeLocale, resolveLocale } from './locale';
import { enGB } from './en-gb';
import { enUS } from './en-us';
import { deDE } from './de-de';
import { esES } from './es-es';
import { nlNL } from './nl-nl';
import { ptPT } from './pt-pt';
import type { Messages } from './en';

const MESSAGES: Record<(typeof LOCALES)[number], Messages> = {
  en,
  'en-us': enUS,
  'en-gb': enGB,
  'de-de': deDE,
  'es-es': esES,
  'nl-nl': nlNL,
  'pt-pt': ptPT,
};

type Tree = { [k: string]: unknown };

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

describe('message tables', () => {
  it.each(LOCALES)('%s has every key of en with the same shape, none empty', (code) => {
    const table = MESSAGES[code] as unknown as Tree;
    expect(shape(table).sort()).toEqual(shape(en as unknown as Tree).sort());
    for (const [key, text] of strings(table)) expect(text.trim(), `${code} ${key}`).not.toBe('');
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
  ]);

  it.each(['de-de', 'es-es', 'nl-nl', 'pt-pt'] as const)('%s leaves no English sentence untranslated', (code) => {
    const english = new Map(strings(en));
    const left = strings(MESSAGES[code] as unknown as Tree).filter(([k, s]) => !SAME.has(k) && english.get(k) === s && /[a-z]{3}/.test(s));
    expect(left).toEqual([]);
  });

  it('keeps the exact messages of the spec in English', () => {
    expect(en.errors.invalid_email).toBe('Please enter a Valid Email.');
    expect(en.errors.not_applicable).toBe('This Coupon is not available for this product.');
    expect(en.copied).toBe('Copied!');
    expect(en.notFound).toBe('This page could not be found');
    expect(en.backHome).toBe('Back to the home page');
    for (const code of ['en', 'en-us', 'en-gb'] as const) expect(MESSAGES[code].errors.invalid_email).toBe('Please enter a Valid Email.');
  });

  it('uses regional spelling for en-us and en-gb', () => {
    expect(MESSAGES['en-us'].setupSteps[2]).toContain('favorite');
    expect(MESSAGES['en-gb'].setupSteps[2]).toContain('favourite');
    expect(MESSAGES['en-gb'].customize).toBe('Customise your plan');
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
