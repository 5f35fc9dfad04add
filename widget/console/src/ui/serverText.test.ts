import { describe, expect, it } from 'vitest';
import { switchLocale } from '../messages';
import { auditDetail, itemText } from './serverText';

const item = (args: string[], description = 'the English text') => ({ description, args });
const audit = (args: string[], detail = 'the English detail') => ({ detail, args });

describe('itemText', () => {
  it('words every item in German from its parts: the plan’s name as the seller wrote it, the cycle and our words translated', async () => {
    await switchLocale('de-de');
    expect(itemText(item(['plan', 'Free Trial', 'monthly']))).toBe('Free Trial — Monatlich');
    expect(itemText(item(['extra', '1']))).toBe('1 zusätzliche Verbindung');
    expect(itemText(item(['extra', '3', 'Wohnzimmer']))).toBe('3 zusätzliche Verbindungen — Wohnzimmer');
    expect(itemText(item(['proxy']))).toBe('Proxy-Schutz');
    expect(itemText(item(['promotion', 'WELCOME']))).toBe('Aktion WELCOME');
    expect(itemText(item(['tax', '19', 'DE']))).toBe('USt. 19 % (DE)');
    expect(itemText(item(['adjustment']))).toBe('Ausgleich');
    expect(itemText(item(['change', 'Standard', 'Premium', 'annually', '3', '2027-01-31']))).toBe(
      'Wechsel von Standard zu Premium, Jährlich, 3 Verbindungen, bis 31.01.2027',
    );
    expect(itemText(item(['renewal', 'Küche', '2026-12-01']))).toBe('Verlängerung — Küche (fällig 01.12.2026)');
  });

  it('words them in English, and shows the server’s text for parts it cannot word', async () => {
    await switchLocale('en');
    expect(itemText(item(['plan', 'Standard', 'semiannually']))).toBe('Standard — Semi-annually');
    expect(itemText(item(['extra', '2']))).toBe('2 extra connections');
    expect(itemText(item(['tax', '20', 'FR']))).toBe('VAT 20% (FR)');
    expect(itemText(item(['change', 'Standard', 'Premium', 'monthly', '1', '2027-01-31']))).toBe(
      'Change of Standard to Premium, Monthly, 1 connection, until 2027-01-31',
    );
    expect(itemText(item([]))).toBe('the English text');
    expect(itemText(item(['plan', 'only the name']))).toBe('the English text');
    expect(itemText(item(['extra', 'many']))).toBe('the English text');
    expect(itemText(item(['something-new', 'x']))).toBe('the English text');
  });
});

describe('auditDetail', () => {
  it('words the server’s details in German, amounts formatted as in the console, a typed reason as typed', async () => {
    await switchLocale('de-de');
    expect(auditDetail(audit(['payment-requested']))).toBe('Zahlung angefordert');
    expect(auditDetail(audit(['provisioned-unpaid']))).toBe('unbezahlt bereitgestellt');
    expect(auditDetail(audit(['refund', '1299', 'EUR', 'sandbox', 'per Telefon', '']))).toBe('12,99\u00a0€ über sandbox: per Telefon');
    expect(auditDetail(audit(['refund', '500', 'EUR', 'hand', 'Kulanz', 'replayed']))).toBe(
      'wiederholt, nichts weiter erstattet: 5,00\u00a0€ über Hand: Kulanz',
    );
    expect(auditDetail(audit(['version', '4', 'neue Preise']))).toBe('Version 4: neue Preise');
    expect(auditDetail(audit(['sessions', '2']))).toBe('2 Sitzungen');
    expect(auditDetail(audit(['signin-failed', 'bad_password']))).toBe('falsches Passwort');
    expect(auditDetail(audit(['signin-failed', 'a_new_reason']))).toBe('a_new_reason');
  });

  it('words them in English, and shows the detail as written without parts', async () => {
    await switchLocale('en');
    expect(auditDetail(audit(['refund', '1299', 'EUR', 'sandbox', 'asked by phone', '']))).toBe('€12.99 by sandbox: asked by phone');
    expect(auditDetail(audit(['sessions', '1']))).toBe('1 session');
    expect(auditDetail(audit(['signin-failed', 'throttled']))).toBe('too many attempts');
    expect(auditDetail(audit([], 'aa:bb:cc:dd:ee:ff'))).toBe('aa:bb:cc:dd:ee:ff');
    expect(auditDetail(audit(['refund', '12.99', 'EUR', 'x', 'y', '']))).toBe('the English detail');
  });
});
