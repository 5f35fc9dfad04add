// The checkout's other numbers: a promotion's value ("10 %", "€5.00"), a conversion rate, and the
// "≈" amount in the shop's default currency. Only the checkout form shows them, so they load with it.
import { formatMoney, type Money } from './format';
import { minorDigits } from './minor';
import { bcp47, type LocaleCode } from './locale';

/** Formats a decimal written in the currency's units, as the catalog writes a fixed promotion ("5.00" EUR, "500" JPY). */
export function formatDecimalMoney(value: number, currency: string, locale: LocaleCode): string {
  return formatMoney({ amount: Math.round(value * 10 ** minorDigits(currency)), currency }, locale);
}

export function formatDecimal(value: number, locale: LocaleCode, maxDigits = 4): string {
  return new Intl.NumberFormat(bcp47(locale), { maximumFractionDigits: maxDigits }).format(value);
}

export function formatPercent(value: number, locale: LocaleCode): string {
  return new Intl.NumberFormat(bcp47(locale), { style: 'percent', maximumFractionDigits: 2 }).format(value / 100);
}

/**
 * Converts an amount to the default currency with the catalog's decimal rates (rate = units of the
 * currency per unit of the default one). Used only for the "≈" hint: the server prices everything.
 */
export function toDefaultCurrency(money: Money, rate: string, defaultCurrency: string): Money | null {
  const r = Number(rate);
  if (!Number.isFinite(r) || r <= 0) return null;
  const major = money.amount / 10 ** minorDigits(money.currency) / r;
  return { amount: Math.round(major * 10 ** minorDigits(defaultCurrency)), currency: defaultCurrency };
}
