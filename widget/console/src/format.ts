// Display formats, all through Intl in the console's language (messages.ts). Times are shown in
// UTC (the shop's business days are UTC days), so every operator reads the same minute whatever
// the browser's time zone.
import { formatMoney as widgetMoney } from '../../src/i18n/format';
import { minorDigits } from '../../src/i18n/minor';
import { locale, t, tag } from './messages';
import type { Money, OrderKind } from './schemas';

/** major turns minor units into the currency's major unit (1299 EUR → 12.99). */
export function major(m: Money): number {
  return m.amount / 10 ** minorDigits(m.currency);
}

/**
 * formatMoney is every amount the console shows: the buyer widget's formatting (its minor-unit
 * table, widget/src/i18n/minor.ts, and its Intl formats) in the console's language, so one amount
 * reads the same on the buyer's screen and the seller's.
 */
export function formatMoney(m: Money): string {
  return widgetMoney(m, locale);
}

// Intl formats cost a little to build and the console formats hundreds of cells: one per language.
const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: (tag: string) => F): F {
  const k = `${tag()}|${key}`;
  let f = cache.get(k) as F | undefined;
  if (!f) {
    f = make(tag());
    cache.set(k, f);
  }
  return f;
}

// Numeric days (23.11.2026, 23/11/2026): short enough for a table cell at 375 px in every language.
const DAY_PARTS = { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' } as const;
const instantFormat = () =>
  cached(
    'instant',
    (l) => new Intl.DateTimeFormat(l, { ...DAY_PARTS, hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }),
  );
const dayFormat = () => cached('day', (l) => new Intl.DateTimeFormat(l, DAY_PARTS));
const shortDayFormat = () => cached('short-day', (l) => new Intl.DateTimeFormat(l, { day: 'numeric', month: 'short', timeZone: 'UTC' }));

/**
 * English keeps the ISO forms the console always showed ("2026-11-23 14:05 UTC", "2026-12-20"):
 * one unambiguous form for US and UK operators alike, and the form the end-to-end tests and
 * operators' habits know. Every other language reads Intl's medium date in its own order.
 */
/** isoDates is true in English, whose console shows days as YYYY-MM-DD (no US/UK ambiguity). */
export const isoDates = () => locale === 'en' || locale === 'en-us' || locale === 'en-gb';

/** formatTime shows an RFC 3339 instant in UTC ("2026-11-23 14:05 UTC", "23.11.2026, 14:05 UTC"); "" stays "—". */
export function formatTime(iso: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  if (isoDates()) return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return instantFormat().format(d);
}

/** dayDate reads a calendar day (YYYY-MM-DD) as its UTC midnight, or null. */
function dayDate(day: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** formatDay shows a calendar day (YYYY-MM-DD: a due date, a chart's day) in the language's format ("20.12.2026"); "" stays "—". */
export function formatDay(day: string): string {
  if (!day) return '—';
  const d = dayDate(day);
  return d && !isoDates() ? dayFormat().format(d) : day;
}

/** formatShortDay is a day without its year, for the chart's axis ("Nov 23", "23. Nov."); `at` in seconds since the epoch. */
export function formatShortDay(at: number): string {
  return shortDayFormat().format(new Date(at * 1000));
}

/** formatNumber shows a count or a quantity with the language's separators. */
export function formatNumber(n: number, maximumFractionDigits = 0): string {
  return cached(`n${maximumFractionDigits}`, (l) => new Intl.NumberFormat(l, { maximumFractionDigits })).format(n);
}

/** formatPercent shows a ratio (0.0432) as a percentage with one decimal at most ("4.3%", "4,3 %"). */
export function formatPercent(ratio: number): string {
  return cached('percent', (l) => new Intl.NumberFormat(l, { style: 'percent', maximumFractionDigits: 1 })).format(ratio);
}

/** parseAmount reads "12.50" (or "12,50") in the currency's major unit as minor units; null when it is not an amount. */
export function parseAmount(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const m = /^\s*(\d+)(?:[.,](\d+))?\s*$/.exec(text);
  if (!m || (m[2] && m[2].length > digits)) return null;
  const frac = (m[2] ?? '').padEnd(digits, '0');
  return Number(m[1]) * 10 ** digits + (digits ? Number(frac) : 0);
}

/** orderKind is an order's kind in the operator's language; a kind this console does not know yet shows as sent. */
export const orderKind = (kind: string): string => t.kinds[kind as OrderKind] ?? kind;
