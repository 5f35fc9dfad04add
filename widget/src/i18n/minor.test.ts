import { describe, expect, it } from 'vitest';
import iso4217 from '../test/iso4217-digits.json';
import { formatMoney } from './format';
import { minorDigits } from './minor';

describe('minor-unit digits', () => {
  it('are the server’s for every ISO 4217 code (api/money writes the table), where ICU shows fewer too', () => {
    const differs = Object.entries(iso4217).filter(([code, digits]) => minorDigits(code) !== digits);
    expect(differs).toEqual([]);
  });

  it('read and show amounts of a currency ICU shows without decimals at their true size', () => {
    expect(formatMoney({ amount: 129_900, currency: 'HUF' }, 'en')).toMatch(/1,299\.00/);
    expect(formatMoney({ amount: 2_500_000, currency: 'IDR' }, 'en')).toMatch(/25,000\.00/);
    expect(formatMoney({ amount: 1_500, currency: 'IQD' }, 'en')).toMatch(/1\.500/);
    // The others keep Intl's own digits.
    expect(formatMoney({ amount: 1_299, currency: 'JPY' }, 'en')).toBe('¥1,299');
    expect(formatMoney({ amount: 1_299, currency: 'EUR' }, 'en')).toBe('€12.99');
  });
});
