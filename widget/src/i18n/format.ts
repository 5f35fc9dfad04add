// Prices and dates go through Intl for the active locale; amounts stay integer minor units until here.
import { bcp47, type LocaleCode } from './locale';
import { fractionDigits, minorDigits } from './minor';

export interface Money {
  amount: number;
  currency: string;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function currencyFormat(locale: LocaleCode, currency: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let f = numberFormats.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(bcp47(locale), { style: 'currency', currency, ...fractionDigits(currency) });
    } catch {
      // An unknown ISO code still renders, with the code instead of a symbol.
      f = new Intl.NumberFormat(bcp47(locale), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    numberFormats.set(key, f);
  }
  return f;
}

export function formatMoney(money: Money, locale: LocaleCode): string {
  const value = money.amount / 10 ** minorDigits(money.currency);
  const text = currencyFormat(locale, money.currency).format(value);
  return currencyFormat(locale, money.currency).resolvedOptions().style === 'currency' ? text : `${text} ${money.currency}`;
}

export function formatDate(isoDate: string, locale: LocaleCode): string {
  // A YYYY-MM-DD date is a calendar day: format it in UTC so no time zone shifts it by one.
  const d = /^\d{4}-\d{2}-\d{2}$/.test(isoDate) ? new Date(`${isoDate}T00:00:00Z`) : new Date(isoDate);
  if (Number.isNaN(d.getTime())) return isoDate;
  return new Intl.DateTimeFormat(bcp47(locale), { dateStyle: 'long', timeZone: 'UTC' }).format(d);
}
