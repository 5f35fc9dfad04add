import { describe, expect, it } from 'vitest';
import { switchLocale } from '../messages';
import { auditAction, auditDetail, driftValue, itemText, paymentReason } from './serverText';

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

const CHANGE = [
  'line-change',
  'now',
  'upgrade',
  'Basic',
  'Premium',
  'monthly',
  'annually',
  '1',
  '2',
  '2026-12-10',
  '2027-01-10',
  '450',
  '999',
  '1499',
  'EUR',
  '15',
];

describe('audit entries written with their parts (issue 26)', () => {
  it('words every action and detail in German', async () => {
    await switchLocale('de-de');
    expect(auditAction('order-refund')).toBe('Bestellung erstattet');
    expect(auditAction('console-signin')).toBe('Anmeldung an der Konsole');
    expect(auditAction('line-drift-mac')).toBe('Leitungsabweichung: andere MAC-Adresse');
    expect(auditAction('restart')).toBe('Leitung neu gestartet');
    expect(auditAction('a-new-action')).toBe('a-new-action');
    expect(paymentReason('short')).toBe('weniger als fällig');
    expect(paymentReason('a_new_reason')).toBe('a_new_reason');
    expect(driftValue('an order')).toBe('eine Bestellung');
    expect(driftValue('2026-12-01T10:00:00Z')).toBe('01.12.2026, 10:00 UTC');
    expect(auditDetail(audit(CHANGE))).toBe(
      'sofort berechnet: Tarif Basic → Premium, Laufzeit Monatlich → Jährlich, Verbindungen 1 → 2, Fälligkeit 10.12.2026 → 10.01.2027, ' +
        'Zahlungslink über 4,50\u00a0€ (15 Tage übrig), je Zeitraum 14,99\u00a0€ statt 9,99\u00a0€; upgrade',
    );
    expect(auditDetail(audit(['change-applied', 'ord_9', 'chg_1']))).toBe('Bestellung ord_9 bezahlt: Änderung chg_1 ausgeführt');
    expect(auditDetail(audit(['payment-refund', 'ord_3', '200', 'EUR', 'short', 'hand', 'bank 42']))).toBe(
      'ord_3: 2,00\u00a0€ (weniger als fällig) erstattet über Hand, Referenz bank 42',
    );
    expect(auditDetail(audit(['payment-refund', 'ord_3', '200', 'EUR', 'over', 'stripe', 're_1']))).toBe(
      'ord_3: 2,00\u00a0€ (mehr als fällig) erstattet über stripe re_1',
    );
    expect(auditDetail(audit(['payment-accept', 'ord_4', '1000', 'USD', '999', 'EUR', 'currency']))).toBe(
      'ord_4: 10,00\u00a0$ angenommen für 9,99\u00a0€ (andere Währung)',
    );
    expect(auditDetail(audit(['reject-refund', 'Karte gestohlen', 'refunded', '999', 'EUR']))).toBe(
      'Karte gestohlen (9,99\u00a0€ erstattet)',
    );
    expect(auditDetail(audit(['reject-refund', 'x', 'to-refund-by-hand', '999', 'EUR']))).toBe('x (9,99\u00a0€ von Hand zu erstatten)');
    expect(auditDetail(audit(['upsell', 'ord_6', '1', '3']))).toBe('Bestellung ord_6: +1 Verbindungen, insgesamt 3');
    expect(auditDetail(audit(['reseller-credit', 'ord_8', '100', '250']))).toBe('Bestellung ord_8: +100 Guthaben, Stand 250');
    expect(auditDetail(audit(['line-drift', 'absent', 'present', 'recreated']))).toBe(
      'Panel hatte keine Leitung, Shop hat die Leitung: Mit denselben Zugangsdaten neu angelegt',
    );
    expect(auditDetail(audit(['line-drift', '1', '2', 'none']))).toBe('Panel hatte 1, Shop hat 2: nichts getan (Probelauf)');
    expect(auditDetail(audit(['job', 'provision', 'ord_1']))).toBe('Bereitstellung ord_1');
  });

  it('words them in English, and shows the detail as written for parts it cannot word', async () => {
    await switchLocale('en');
    expect(auditAction('payment-accept')).toBe('Payment accepted');
    expect(auditDetail(audit(['change-applied', 'ord_9', 'chg_1']))).toBe('order ord_9 paid: change chg_1 applied');
    expect(
      auditDetail(
        audit([
          'line-change',
          'free',
          'goodwill',
          'Basic',
          'Basic',
          'monthly',
          'monthly',
          '1',
          '1',
          '2026-12-10',
          '2026-12-20',
          '0',
          '999',
          '999',
          'EUR',
          '5',
        ]),
      ),
    ).toBe('free of charge: due date 2026-12-10 → 2026-12-20; goodwill');
    expect(auditDetail(audit(['payment-accept', 'ord_4', '1000', 'USD', '999', 'EUR', 'a_new_reason']))).toBe(
      'ord_4: $10.00 accepted for €9.99 (a_new_reason)',
    );
    expect(auditDetail(audit(['upsell', 'ord_6', '1', '3']))).toBe('order ord_6: +1 connections, 3 in all');
    expect(auditDetail(audit(['job', 'mail', '17']))).toBe('Mail delivery 17');
    expect(auditDetail(audit(['line-change', 'now']))).toBe('the English detail');
    expect(auditDetail(audit(['upsell', 'ord_6', 'many', '3']))).toBe('the English detail');
    expect(auditDetail(audit(['reject-refund', 'x', 'something', '1', 'EUR']))).toBe('the English detail');
  });
});
