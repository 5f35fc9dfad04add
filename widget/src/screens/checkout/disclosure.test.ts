// What the buyer is told before paying (issue 25 scope 2): what is charged today and what renews,
// what a trial or a one-time plan does at its end, each cycle's total, per-month price and saving
// against monthly, extras per period, and the consent line (and box) at Pay. Queried inside the
// shadow root, in English and German.
import { fireEvent, waitFor, within } from '@testing-library/dom';
import { describe, expect, it } from 'vitest';
import { installApi } from '../../test/api/vitest';
import { body } from '../../test/api/fixtures';
import { mount, mountIndex } from '../../test/mount';

type UI = Awaited<ReturnType<typeof mountIndex>>['ui'];

const card = (ui: UI, pid: number) =>
  ui()
    .getAllByTestId('plan-card')
    .find((c) => c.dataset.pid === String(pid))!;
const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** The storefront answer with the fields another part of the API adds (`legal`) or the catalog asks for (`consent`). */
function storefront(extra: Record<string, unknown>) {
  return () => ({ ...body<Record<string, unknown>>('catalog.storefront', '200'), ...extra });
}

async function summaryReady(ui: UI) {
  await waitFor(() => expect(text(ui().getByTestId('price-total'))).not.toBe('—'));
  await ui().findByTestId('renewal-terms');
}

// The first mount loads every module cold: on a busy machine that alone can take seconds.
describe('disclosure before payment', { timeout: 20_000 }, () => {
  it('a plan card says what is charged today and what renews; a trial what happens at its end', async () => {
    installApi();
    const { ui } = await mountIndex();
    await waitFor(() => expect(within(card(ui, 2)).getByTestId('plan-terms')).toBeTruthy());
    expect(text(within(card(ui, 2)).getByTestId('plan-terms'))).toBe('€12.99 today, then €12.99 each month until you cancel');
    expect(text(within(card(ui, 1)).getByTestId('plan-terms'))).toBe(
      'When the free trial ends, it simply stops: nothing is charged and nothing renews.',
    );
    // Monthly has nothing to be compared with: no saving shown.
    expect(within(card(ui, 2)).queryByTestId('plan-save')).toBeNull();
  });

  it('the cycle picker shows each total, its price per month and its saving against monthly; the card names the comparison', async () => {
    installApi();
    const { ui } = await mountIndex({ plan: '2' });
    const picker = ui().getByTestId<HTMLSelectElement>('billing-cycle');
    const options = [...picker.options].map((o) => text(o));
    expect(options).toEqual([
      'Monthly · €12.99',
      'Quarterly · €32.99 (€11.00/month) · save 15% vs. monthly',
      'Every 6 months · €59.99 (€10.00/month) · save 23% vs. monthly',
      'Yearly · €99.99 (€8.33/month) · save 35% vs. monthly',
    ]);
    fireEvent.change(picker, { target: { value: 'annually' } });
    await waitFor(() => expect(text(within(card(ui, 2)).getByTestId('plan-save'))).toBe('Save 35% vs. 12 months at €12.99'));
    expect(text(within(card(ui, 2)).getByTestId('plan-terms'))).toContain('€99.99 today, then €99.99 each year until you cancel');
  });

  it('the summary says what is due today and what renews (the full price after a one-time promo); extras say per what', async () => {
    installApi();
    const { ui } = await mountIndex({ plan: '3', promocode: 'welcome10' });
    fireEvent.change(ui().getByTestId('billing-cycle'), { target: { value: 'quarterly' } });
    fireEvent.click(ui().getByTestId('proxy-protection-toggle'));
    await waitFor(() =>
      expect(text(ui().getByText(/Keeps your streams/))).toBe('Keeps your streams private and unblocked. €5.00 per 3 months.'),
    );
    expect(text(ui().getByText(/Watch on more devices/))).toBe(
      'Watch on more devices at the same time: €8.00 per 3 months for each extra connection.',
    );
    fireEvent.click(ui().getByTestId('extra-connections-toggle'));
    fireEvent.click(ui().getByLabelText('More connections'));
    // Premium quarterly 39.99 + 2 × 8.00 + 5.00 = 60.99; 10 % off the first period only.
    await waitFor(() => expect(text(ui().getByTestId('price-total'))).toBe('€54.89'));
    await waitFor(() =>
      expect(text(ui().getByTestId('renewal-terms'))).toBe('Due today: €54.89. Then €60.99 every 3 months until you cancel.'),
    );
    expect(text(ui().getByTestId('consent-line'))).toBe(
      'By paying, you agree to the Terms of Service. Your plan renews every 3 months at €60.99 until you cancel it in “My services”; we send an invoice before each due date.',
    );
  });

  it('links the terms to the storefront’s legal page when the API names one, else to the support site', async () => {
    const api = installApi();
    api.on('catalog.storefront', storefront({ legal: { terms: 'https://shop.example/checkout/legal/terms' } }), { offContract: true });
    const { ui } = await mountIndex({ plan: '2' });
    await summaryReady(ui);
    await waitFor(() => expect(ui().getByTestId('terms-link').getAttribute('href')).toBe('https://shop.example/checkout/legal/terms'));
  });

  it('without legal pages, the terms link is the support site’s #terms', async () => {
    installApi();
    const { ui } = await mountIndex({ plan: '2' });
    await summaryReady(ui);
    await waitFor(() => expect(ui().getByTestId('terms-link').getAttribute('href')).toBe('https://help.streamcart.example/#terms'));
    expect(ui().queryByTestId('consent-checkbox')).toBeNull();
  });

  it('a trial says it ends on its own; its consent names the terms', async () => {
    installApi();
    const { ui } = await mountIndex({ plan: '1' });
    await summaryReady(ui);
    expect(text(ui().getByTestId('renewal-terms'))).toBe(
      'When the free trial ends, it simply stops: nothing is charged and nothing renews.',
    );
    expect(text(ui().getByTestId('consent-line'))).toBe(
      'By starting the free trial, you agree to the Terms of Service. It ends on its own: nothing is charged.',
    );
  });

  it('reseller credits say they do not renew', async () => {
    installApi();
    history.replaceState(null, '', '/checkout/resellers');
    const m = mount({ routing: 'history', base: '/checkout/' });
    await waitFor(() => expect(m.ui().getAllByTestId('plan-card').length).toBeGreaterThan(0));
    const ui = m.ui;
    await waitFor(() => expect(text(within(card(ui, 11)).getByTestId('plan-terms'))).toBe('One-time payment: it does not renew.'));
    expect(text(ui().getByTestId('consent-line'))).toBe(
      'By paying, you agree to the Terms of Service. One-time payment: it does not renew.',
    );
    history.replaceState(null, '', '/');
  });

  it('asks for a ticked box where the catalog wants one, and places no order without it', async () => {
    const api = installApi();
    api.on('catalog.storefront', storefront({ consent: { checkbox: true } }));
    const { ui } = await mountIndex({ plan: '2' });
    await summaryReady(ui);
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    const box = await ui().findByTestId<HTMLInputElement>('consent-checkbox');
    expect(text(box.closest('label'))).toBe('I agree to the Terms of Service and to the renewal terms above.');
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    expect(text(await ui().findByTestId('consent-error'))).toBe('Please accept the terms to continue.');
    expect(api.callsTo('order.create')).toHaveLength(0);
    fireEvent.click(box);
    expect(ui().queryByTestId('consent-error')).toBeNull();
    fireEvent.click(ui().getByTestId('pay-button'));
    await waitFor(() => expect(api.callsTo('order.create')).toHaveLength(1));
  });

  it('says it all in German', async () => {
    installApi();
    const { ui } = await mountIndex({ plan: '2', locale: 'de-de' });
    await summaryReady(ui);
    await waitFor(() =>
      expect(text(within(card(ui, 2)).getByTestId('plan-terms'))).toBe('Heute 12,99 €, danach 12,99 € jeden Monat, bis Sie kündigen'),
    );
    expect(text(ui().getByTestId('renewal-terms'))).toBe('Heute fällig: 12,99 €. Danach 12,99 € jeden Monat, bis Sie kündigen.');
    expect(text(ui().getByTestId('consent-line'))).toContain('Mit der Zahlung stimmen Sie den Allgemeinen Geschäftsbedingungen zu.');
    const yearly = [...ui().getByTestId<HTMLSelectElement>('billing-cycle').options].find((o) => o.value === 'annually')!;
    expect(text(yearly)).toBe('Jährlich · 99,99 € (8,33 €/Monat) · 35 % günstiger als monatlich');
  });
});
