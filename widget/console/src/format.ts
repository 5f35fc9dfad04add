// Display formats. Times are shown as the API gives them, in UTC (the shop's business days are UTC
// days), so every operator reads the same minute whatever the browser's time zone.
import { formatMoney as widgetMoney } from '../../src/i18n/format';
import { minorDigits } from '../../src/i18n/minor';
import type { Money } from './schemas';

/** major turns minor units into the currency's major unit (1299 EUR → 12.99). */
export function major(m: Money): number {
  return m.amount / 10 ** minorDigits(m.currency);
}

/**
 * formatMoney is every amount the console shows: the buyer widget's formatting (its minor-unit
 * table, widget/src/i18n/minor.ts, and its Intl formats) in English, so one amount reads the same
 * on the buyer's screen and the seller's.
 */
export function formatMoney(m: Money): string {
  return widgetMoney(m, 'en');
}

/** formatTime shows an RFC 3339 instant as "2026-11-23 14:05 UTC"; "" stays "—". */
export function formatTime(iso: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** parseAmount reads "12.50" in the currency's major unit as minor units; null when it is not an amount. */
export function parseAmount(text: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const m = /^\s*(\d+)(?:[.,](\d+))?\s*$/.exec(text);
  if (!m || (m[2] && m[2].length > digits)) return null;
  const frac = (m[2] ?? '').padEnd(digits, '0');
  return Number(m[1]) * 10 ** digits + (digits ? Number(frac) : 0);
}
