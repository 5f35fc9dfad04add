// The console's texts in the seven locales (issue 26, point 8): every table has every key of the
// English one with the same shape, the translated ones leave no English behind, the operator's
// choice wins over the browser's language and is remembered, and dates, numbers and money follow
// the language.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDay, formatMoney, formatNumber, formatPercent, formatShortDay, formatTime } from '../format';
import { LOCALES, STORAGE_KEY, preferredLocale, switchLocale, tableOf, t, type LocaleCode } from '../messages';
import { FakeApi, summary } from '../test/fakeApi';
import { renderConsole } from '../test/render';

type Tree = { [k: string]: unknown };

/** Every leaf path with the kind of value (string, function of n args). */
function shape(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') return [`${path}:string`];
    if (typeof v === 'function') return [`${path}:fn${v.length}`];
    return shape(v as Tree, path);
  });
}

/** Every text, functions called with sample values (numbers where a count decides the wording). */
function strings(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]): [string, string][] => {
    const path = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') return [[path, v]];
    if (typeof v === 'function') {
      const fn = v as (...a: unknown[]) => string;
      return [
        [`${path}(2)`, String(fn(...Array.from({ length: fn.length }, () => 2)))],
        [`${path}(X)`, String(fn(...Array.from({ length: fn.length }, () => 'X')))],
      ];
    }
    return strings(v as Tree, path);
  });
}

const tables = async () => Object.fromEntries(await Promise.all(LOCALES.map(async (c) => [c, (await tableOf(c)) as unknown as Tree])));

// Words that are the same in a language and English, or codes and names rather than words.
const SAME: Record<string, RegExp> = {
  'de-de':
    /^(navWebhooks|webhooksCaption|timelineKinds\.webhook|filterStatus|colStatus|filterMailStatus|colVersion|colVariable|planNameLabel|promoCodeLabel|colCode|storefrontsHeading|filterOutcomeHint|creditsHelpUrl|roles\.support)\b/,
  'es-es':
    /^(navWebhooks|webhooksCaption|timelineKinds\.webhook|planHeading|itemKinds\.plan|kinds\.plan|colPlan|filterOutcomeHint|creditsHelpUrl|no)\b/,
  'nl-nl':
    /^(menu|navWebhooks|webhooksCaption|timelineKinds\.webhook|filterProvider|colProvider|colProduct|planHeading|filterOutcomeHint|creditsHelpUrl)\b/,
  'pt-pt': /^(navWebhooks|webhooksCaption|timelineKinds\.webhook|planHeading|filterOutcomeHint|creditsHelpUrl)\b/,
};

describe('console text tables', () => {
  it.each(LOCALES)('%s has every key of en with the same shape, none empty', async (code) => {
    const all = await tables();
    expect(shape(all[code]).sort()).toEqual(shape(all.en).sort());
    for (const [key, text] of strings(all[code])) expect(text.trim(), `${code} ${key}`).not.toBe('');
  });

  const TRANSLATED = LOCALES.filter((c) => !c.startsWith('en'));
  it.each(TRANSLATED)('%s leaves no English text untranslated', async (code) => {
    const all = await tables();
    const english = new Map(strings(all.en));
    const left = strings(all[code]).filter(([k, s]) => english.get(k) === s && /[a-z]{3}/i.test(s) && !SAME[code]!.test(k));
    expect(left).toEqual([]);
    // And most texts differ outright, not only by a word.
    const differ = strings(all[code]).filter(([k, s]) => english.get(k) !== s).length;
    expect(differ / english.size).toBeGreaterThan(0.95);
  });

  it('names every API error the English table names, in every language', async () => {
    const all = await tables();
    const names = Object.keys((all.en!.errors as Tree) ?? {}).sort();
    for (const code of LOCALES) expect(Object.keys(all[code]!.errors as Tree).sort(), code).toEqual(names);
  });
});

describe('the console language', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is the operator’s choice, else the browser’s closest language, else English', () => {
    const browser = (languages: string[]) => vi.stubGlobal('navigator', { ...navigator, languages });
    browser(['fr-FR', 'de-AT']);
    expect(preferredLocale()).toBe('de-de');
    browser(['en-GB', 'de']);
    expect(preferredLocale()).toBe('en-gb');
    browser(['fr-FR', 'ja']);
    expect(preferredLocale()).toBe('en');
    localStorage.setItem(STORAGE_KEY, 'pt-pt');
    expect(preferredLocale()).toBe('pt-pt');
    localStorage.setItem(STORAGE_KEY, 'klingon');
    expect(preferredLocale()).toBe('en');
  });

  it.each<[LocaleCode, string, string, string, string]>([
    ['en', '€1,234.50', '2026-12-20', '2026-11-23 14:05 UTC', '4.3%'],
    ['en-us', '€1,234.50', '2026-12-20', '2026-11-23 14:05 UTC', '4.3%'],
    ['de-de', '1.234,50 €', '20.12.2026', '23.11.2026, 14:05 UTC', '4,3 %'],
    ['es-es', '1234,50 €', '20/12/2026', '23/11/2026, 14:05 UTC', '4,3 %'],
    ['nl-nl', '€ 1.234,50', '20-12-2026', '23-11-2026, 14:05 UTC', '4,3%'],
    ['pt-pt', '1234,50 €', '20/12/2026', '23/11/2026, 14:05 UTC', '4,3%'],
  ])('formats money, days, instants and ratios in %s', async (code, money, day, time, percent) => {
    await switchLocale(code);
    const norm = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
    expect(norm(formatMoney({ amount: 123_450, currency: 'EUR' }))).toBe(money);
    expect(norm(formatDay('2026-12-20'))).toBe(day);
    expect(norm(formatTime('2026-11-23T14:05:00Z'))).toBe(time);
    expect(norm(formatPercent(0.0432))).toBe(percent);
    expect(formatDay('')).toBe('—');
  });

  it('labels the chart’s days in the language, not US-style', async () => {
    const at = Date.parse('2026-11-23T00:00:00Z') / 1000;
    await switchLocale('en-gb');
    expect(formatShortDay(at)).toBe('23 Nov');
    await switchLocale('de-de');
    expect(formatShortDay(at)).toBe('23. Nov.');
    expect(formatNumber(1234)).toBe('1.234');
  });

  it('switches from the header menu, remembers the choice, and keeps English identical', async () => {
    const fake = new FakeApi().on('GET', '/summary', () => summary());
    await renderConsole(fake, '/checkout/admin/');
    const nav = screen.getByRole('navigation', { name: 'Console' });
    expect(within(nav).getByRole('link', { name: 'Orders' })).toBeTruthy();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de-de');
    expect(await screen.findByRole('heading', { level: 1, name: 'Übersicht' })).toBeTruthy();
    const german = screen.getByRole('navigation', { name: 'Konsole' });
    expect(within(german).getByRole('link', { name: 'Bestellungen' })).toBeTruthy();
    expect(await screen.findByText('Monatlich wiederkehrender Umsatz')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Sprache' })).toBeTruthy();
    expect(localStorage.getItem(STORAGE_KEY)).toBe('de-de');
    expect(document.documentElement.lang).toBe('de-DE');
    expect(document.title).toBe('Übersicht · Streamcart-Konsole');
    expect(t.signOut).toBe('Abmelden');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sprache' }), 'en');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Dashboard'));
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Menu' })).toBeTruthy();
  });

  it('offers the menu before sign-in too', async () => {
    await renderConsole(new FakeApi(null), '/checkout/admin/');
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'es-es');
    expect(await screen.findByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeTruthy();
    expect(screen.getByLabelText('Contraseña')).toBeTruthy();
  });
});
