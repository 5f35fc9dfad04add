// Unit tests of the host's pure rules (no browser): reload guard, prefetch
// policy, particles, locale links, currency parsing, posters, host strings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  RELOAD_WINDOW_MS,
  shouldReload,
  isChunkLoadError,
  canPrefetch,
  particleCount,
  normalizeLocale,
  localeHref,
  currencyLabel,
  currencySymbol,
  shownLocale,
  parseCurrencies,
  safeHttpURL,
  offShop,
  POSTERS_PER_ROW,
} from '../assets/policy.js';
import { posterSpecs } from '../assets/posters.js';

const PREFIXES = ['de-de', 'en-gb', 'en-us', 'es-es', 'nl-nl', 'pt-pt'];

test('shouldReload allows one reload per 60 s window', () => {
  const now = 1_000_000;
  for (const [last, want] of [
    [null, true],
    ['', true],
    ['garbage', true],
    ['0', true],
    [String(now), false],
    [String(now - RELOAD_WINDOW_MS + 1), false],
    [String(now - RELOAD_WINDOW_MS), true],
    [String(now - 10 * RELOAD_WINDOW_MS), true],
  ]) {
    assert.equal(shouldReload(now, last), want, `last=${last}`);
  }
});

test('isChunkLoadError recognises failed dynamic imports only', () => {
  for (const reason of [
    new TypeError('Failed to fetch dynamically imported module: https://x/widget/a.js'),
    new TypeError('error loading dynamically imported module'),
    new TypeError('Importing a module script failed.'),
    Object.assign(new Error('Loading chunk 12 failed.'), { name: 'ChunkLoadError' }),
    'Failed to fetch dynamically imported module: /a.js',
  ])
    assert.equal(isChunkLoadError(reason), true, String(reason));
  for (const reason of [undefined, null, 42, new Error('boom'), new TypeError('Failed to fetch'), { message: 7 }]) {
    assert.equal(isChunkLoadError(reason), false, String(reason));
  }
});

test('canPrefetch refuses 2g and data saver', () => {
  for (const [c, want] of [
    [undefined, true],
    [{}, true],
    [{ effectiveType: '4g' }, true],
    [{ effectiveType: '3g', saveData: false }, true],
    [{ effectiveType: '2g' }, false],
    [{ effectiveType: 'slow-2g' }, false],
    [{ effectiveType: '4g', saveData: true }, false],
  ])
    assert.equal(canPrefetch(c), want, JSON.stringify(c));
});

test('particleCount is 10 on mobile and 20 otherwise', () => {
  assert.equal(particleCount(true), 10);
  assert.equal(particleCount(false), 20);
});

test('normalizeLocale maps en-en to en', () => {
  assert.equal(normalizeLocale('en-en'), 'en');
  assert.equal(normalizeLocale('DE-de'), 'de-de');
  assert.equal(normalizeLocale('pt_pt'), 'pt-pt');
  assert.equal(normalizeLocale(undefined), '');
});

test('localeHref swaps the prefix and keeps route, query and hash', () => {
  const base = '/checkout/';
  const cases = [
    [{ pathname: '/checkout/', search: '?promocode=X' }, 'de-de', '/checkout/de-de/?promocode=X'],
    [
      { pathname: '/checkout/de-de/resellers/waiting', search: '?serviceid=3', hash: '#a' },
      'en',
      '/checkout/resellers/waiting?serviceid=3#a',
    ],
    [{ pathname: '/checkout/de-de', search: '' }, 'es-es', '/checkout/es-es/'],
    [{ pathname: '/checkout/nl-nl/success', search: '' }, 'en-en', '/checkout/success'],
    [{ pathname: '/checkout/waiting', search: '?order=9' }, 'pt-pt', '/checkout/pt-pt/waiting?order=9'],
    [{ pathname: '/checkout/waiting', search: '' }, 'fr-fr', '/checkout/waiting'],
    [{ pathname: '/checkout/de-devil', search: '' }, 'nl-nl', '/checkout/nl-nl/de-devil'],
  ];
  for (const [loc, target, want] of cases) assert.equal(localeHref(loc, base, PREFIXES, target), want);
});

test('currencyLabel and parseCurrencies', () => {
  assert.equal(currencyLabel({ code: 'EUR', prefix: '€' }), 'EUR (€)');
  assert.equal(currencyLabel({ code: 'CHF', prefix: '', suffix: ' CHF' }), 'CHF');
  assert.equal(currencyLabel({ code: 'SEK', suffix: ' kr' }), 'SEK (kr)');
  const parsed = parseCurrencies({
    currencies: [{ code: 'EUR', rate: '1', prefix: '€', suffix: '' }, { code: 'bad' }, { code: 'USD', prefix: '$' }],
    default: 'USD',
  });
  assert.deepEqual(parsed, {
    currencies: [
      { code: 'EUR', prefix: '€', suffix: '' },
      { code: 'USD', prefix: '$', suffix: '' },
    ],
    default: 'USD',
  });
  assert.equal(parseCurrencies({ currencies: [{ code: 'GBP' }], default: 'EUR' }).default, 'GBP');
  for (const bad of [null, {}, { currencies: 'x' }, { currencies: [] }, { currencies: [{ code: 1 }] }]) {
    assert.throws(() => parseCurrencies(bad), TypeError);
  }
});

test('safeHttpURL only passes absolute http(s) URLs', () => {
  assert.equal(safeHttpURL('https://help.example/x'), 'https://help.example/x');
  for (const bad of ['javascript:alert(1)', '/relative', '', null, 'data:text/html,x']) assert.equal(safeHttpURL(bad), '');
});

test('offShop: only a dashboard out of the storefront is behind Login', () => {
  const here = 'http://localhost:8080/checkout/de-de/';
  for (const off of ['https://account.example/login', 'http://localhost:9000/checkout/', '/account/', 'http://localhost:8080/account'])
    assert.equal(offShop(off, here), true, off);
  for (const on of ['/checkout/', '/checkout', 'http://localhost:8080/checkout/?x=1', '', null, 'javascript:alert(1)'])
    assert.equal(offShop(on, here), false, String(on));
});

test('two rows of 12 distinct invented posters', () => {
  const rows = [posterSpecs(0), posterSpecs(1)];
  const titles = rows.flat().map((p) => p.title);
  assert.equal(POSTERS_PER_ROW, 12);
  for (const row of rows) assert.equal(row.length, 12);
  assert.equal(new Set(titles).size, 24, 'every poster has its own title');
  for (const row of rows) {
    assert.ok(new Set(row.map((p) => p.motif)).size >= 10, 'motifs vary within a row');
    assert.ok(new Set(row.map((p) => p.palette[0])).size >= 10, 'colours vary within a row');
  }
});

test('every locale has every host string, and translations are not English', async () => {
  const cat = JSON.parse(await readFile(new URL('../assets/i18n.json', import.meta.url), 'utf8'));
  const en = cat.messages[cat.default];
  const keys = Object.keys(en).sort();
  assert.deepEqual(cat.locales.map((l) => l.code).sort(), ['de-de', 'en', 'en-gb', 'en-us', 'es-es', 'nl-nl', 'pt-pt']);
  assert.deepEqual(
    cat.locales.filter((l) => l.listed).map((l) => `${l.switcherCode} ${l.name}`),
    ['en-en English', 'es-es Español', 'de-de Deutsch', 'pt-pt Português', 'nl-nl Nederlands'],
  );
  for (const { code } of cat.locales) {
    const m = cat.messages[code];
    assert.deepEqual(Object.keys(m).sort(), keys, `${code} has exactly the English keys`);
    for (const k of keys) assert.ok(m[k].trim(), `${code}.${k} is empty`);
  }
  // Words that may legitimately stay the same across languages.
  const same = new Set(['error', 'tagline', 'faq', 'linkSupport', 'supportColumn', 'legal', 'dmca', 'currency', 'language']);
  for (const code of ['de-de', 'es-es', 'nl-nl', 'pt-pt']) {
    const untranslated = keys.filter((k) => !same.has(k) && cat.messages[code][k] === en[k]);
    assert.deepEqual(untranslated, [], `${code} strings still in English`);
  }
  assert.equal(en.notFound, 'This page could not be found');
  assert.equal(en.backHome, 'Back to the home page');
  assert.equal(en.error, 'Error');
  assert.equal(en.errorPageFailed, 'An error occurred while showing the error page');
  assert.equal(en.goHome, 'Go back to home');
  assert.equal(en.tagline, 'Premium IPTV Experience');
});

test('currencySymbol is the chosen currency’s sign: its own, else the browser’s, else the code', () => {
  const list = [{ code: 'EUR', prefix: '€' }, { code: 'GBP', prefix: '£' }, { code: 'CHF', suffix: ' CHF' }, { code: 'JPY' }];
  assert.equal(currencySymbol('GBP', list), '£');
  assert.equal(currencySymbol('EUR', list), '€');
  assert.equal(currencySymbol('CHF', list), 'CHF');
  assert.equal(currencySymbol('JPY', list), '¥');
  assert.equal(currencySymbol('USD', []), '$');
  assert.equal(currencySymbol('XYZ1', []), 'XYZ1');
});

test('shownLocale: the menu’s entry for a locale, its language’s when it is not listed', async () => {
  const cat = JSON.parse(await readFile(new URL('../assets/i18n.json', import.meta.url), 'utf8'));
  assert.equal(shownLocale(cat.locales, 'en-us').code, 'en');
  assert.equal(shownLocale(cat.locales, 'en-us').flag, 'gb');
  assert.equal(shownLocale(cat.locales, 'en-gb').code, 'en');
  assert.equal(shownLocale(cat.locales, 'de-de').code, 'de-de');
  assert.equal(shownLocale(cat.locales, 'zz'), null);
});
