import { describe, expect, it } from 'vitest';
import { switchLocale } from '../messages';
import { jobKindName, timelineText } from './timeline';

const ev = (kind: string, args: string[], summary = 'the English line') => ({
  at: '2026-11-20T10:00:00Z',
  kind,
  summary,
  outcome: '',
  detail: '',
  args,
});

describe('timelineText', () => {
  it('words each kind in German from its parts, amounts formatted as in the console', async () => {
    await switchLocale('de-de');
    expect(timelineText(ev('created', ['renewal', 'a@example.com']))).toBe('Bestellung (Verlängerung) aufgegeben von a@example.com');
    expect(timelineText(ev('invoice', ['inv_1', '1299', 'EUR', 'sandbox']))).toBe('Rechnung inv_1: 12,99\u00a0€ über sandbox');
    expect(timelineText(ev('payment', []))).toBe('Rechnung bezahlt');
    expect(timelineText(ev('job', ['expire', '20', '1']))).toBe('Auftrag Zahlungsfrist 20, 1 Versuch');
    expect(timelineText(ev('audit', ['order-refund', 'ord_1', '']))).toBe('order-refund an ord_1 durch den Kunden');
    expect(timelineText(ev('review', ['1000', 'EUR', '1299', 'EUR', 'underpaid']))).toBe(
      'Zahlung 10,00\u00a0€ zurückgestellt (erwartet 12,99\u00a0€): underpaid',
    );
  });

  it('keeps English as the server says it, and shows the summary of an event it cannot word', async () => {
    await switchLocale('en');
    expect(timelineText(ev('invoice', ['inv_1', '1299', 'EUR', 'sandbox']))).toBe('invoice inv_1: €12.99 by sandbox');
    expect(timelineText(ev('job', ['expire', '20', '0']))).toBe('expire job 20, 0 attempts');
    expect(timelineText(ev('refund-note', ['x']))).toBe('the English line');
    expect(timelineText(ev('created', []))).toBe('the English line');
  });
});

describe('jobKindName', () => {
  it('names a job kind in German and English, the timeline’s English keeps the kind itself, an unknown kind stays', async () => {
    await switchLocale('de-de');
    expect(jobKindName('expire')).toBe('Zahlungsfrist');
    expect(timelineText(ev('job', ['provision', '4', '3']))).toBe('Auftrag Bereitstellung 4, 3 Versuche');
    expect(jobKindName('something-new')).toBe('something-new');
    await switchLocale('en');
    expect(jobKindName('expire')).toBe('Payment deadline');
    expect(timelineText(ev('job', ['expire', '20', '1']))).toBe('expire job 20, 1 attempt');
  });
});
