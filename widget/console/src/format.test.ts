import { describe, expect, it } from 'vitest';
import { formatMoney, parseAmount } from './format';

describe('console amounts', () => {
  it('count a currency ICU shows without decimals in its ISO 4217 minor units, as the server does', () => {
    // 500 HUF is 50000 fillér to the server: a refund of "500" must not give back 5 forint.
    expect(parseAmount('500', 'HUF')).toBe(50_000);
    expect(parseAmount('12.5', 'IQD')).toBe(12_500);
    expect(formatMoney({ amount: 50_000, currency: 'HUF' })).toMatch(/500\.00/);
    expect(parseAmount('500', 'JPY')).toBe(500);
    expect(parseAmount('12.50', 'EUR')).toBe(1250);
    expect(formatMoney({ amount: 1250, currency: 'EUR' })).toBe('€12.50');
  });
});
