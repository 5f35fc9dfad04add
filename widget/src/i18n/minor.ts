// Minor-unit digits as the server counts amounts (ISO 4217, api/money): an amount is an integer of
// 10^-digits of its currency. Intl agrees for every code but these, which ICU shows without
// decimals; read through Intl they would show 100 or 1000 times too large. The console shares this
// file. src/test/iso4217-digits.json, kept by api/money's tests, pins the whole table in minor.test.ts.
const ICU_DIFFERS = 'AFN ALL COP HUF IDR IRR KPW LAK LBP MGA MMK PKR SOS SYP YER'; // 2 digits; IQD has 3

/** The ISO 4217 digits of a code ICU shows with fewer, else undefined. */
function isoWhereIcuDiffers(currency: string): number | undefined {
  if (currency === 'IQD') return 3;
  return /^[A-Z]{3}$/.test(currency) && ICU_DIFFERS.includes(currency) ? 2 : undefined;
}

/** The currency's minor-unit digits (0 for JPY, 2 for EUR, 3 for KWD); 2 for a code Intl does not know. */
export function minorDigits(currency: string): number {
  const d = isoWhereIcuDiffers(currency);
  if (d !== undefined) return d;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Intl options showing every minor digit of a currency Intl would show with fewer; none for the others. */
export function fractionDigits(currency: string): Intl.NumberFormatOptions {
  const d = isoWhereIcuDiffers(currency);
  return d === undefined ? {} : { minimumFractionDigits: d, maximumFractionDigits: d };
}
