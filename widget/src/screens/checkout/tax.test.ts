import { fireEvent, waitFor } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../core/browser';
import { apiError, installApi, type Api } from '../../test/api/vitest';
import { defaultReply, type MockRequest } from '../../test/api/mock';
import { mountIndex } from '../../test/mount';

type Json = Record<string, unknown>;
type Money = { amount: number; currency: string };

/** POST /quote as a shop whose catalog includes tax (DE 19 %, FR 20 %), for a buyer whose address is in Germany. */
function taxedQuotes(api: Api) {
  const rates: Record<string, string> = { DE: '19', FR: '20' };
  api.on('pricing.quote', (req: MockRequest) => {
    const r = defaultReply(req);
    const q = r.body as Json;
    const total = q.total as Money;
    const country = String(req.body?.billingCountry ?? 'DE');
    const rate = rates[country] ?? '0';
    const net = Math.round((total.amount * 100) / (100 + Number(rate)));
    return {
      ...q,
      net: { amount: net, currency: total.currency },
      tax: { country, rate, amount: total.amount - net, currency: total.currency, pricesIncludeTax: true, ipCountry: 'DE' },
    };
  });
}

describe('tax', () => {
  it('shows net, VAT and total, and the billing country pre-filled from the address', async () => {
    const api = installApi();
    taxedQuotes(api);
    const { ui } = await mountIndex();
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('€12.99'));
    // 12.99 / 1.19 = 10.92 net, 2.07 VAT.
    await waitFor(() => expect(ui().getByTestId('price-net').textContent).toContain('€10.92'));
    const taxLine = ui().getByTestId('price-tax');
    expect(taxLine.textContent).toContain('VAT 19% (DE)');
    expect(taxLine.textContent).toContain('€2.07');
    const select = ui().getByTestId<HTMLSelectElement>('billing-country');
    expect(select.value).toBe('DE');
    expect(select.selectedOptions[0]!.textContent).toBe('Germany');
    expect(ui().queryByTestId('confirm-country')).toBeNull();
    // The first quote is the address's: no billing country sent.
    expect(api.callsTo('pricing.quote')[0]!.body).not.toHaveProperty('billingCountry');
  });

  it('prices another billing country and asks to confirm it before paying', async () => {
    const api = installApi();
    taxedQuotes(api);
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { ui } = await mountIndex();
    const select = await ui().findByTestId<HTMLSelectElement>('billing-country');
    fireEvent.change(select, { target: { value: 'FR' } });
    await waitFor(() => expect(ui().getByTestId('price-tax').textContent).toContain('VAT 20% (FR)'));
    expect(api.callsTo('pricing.quote').at(-1)!.body).toMatchObject({ billingCountry: 'FR' });
    const confirm = ui().getByTestId<HTMLInputElement>('confirm-country');
    expect(confirm.closest('label')!.textContent).toContain('France');
    expect(confirm.closest('label')!.textContent).toContain('Germany');

    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    expect(await ui().findByTestId('confirm-country-error')).toBeTruthy();
    expect(api.callsTo('order.create')).toHaveLength(0);

    fireEvent.click(confirm);
    expect(ui().queryByTestId('confirm-country-error')).toBeNull();
    fireEvent.click(ui().getByTestId('pay-button'));
    await waitFor(() => expect(api.callsTo('order.create')).toHaveLength(1));
    expect(api.callsTo('order.create')[0]!.body).toMatchObject({ billingCountry: 'FR', confirmCountry: true });
    await waitFor(() => expect(assign).toHaveBeenCalled());
  });

  it('shows no tax line nor country without a tax block', async () => {
    installApi();
    const { ui } = await mountIndex();
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('€12.99'));
    expect(ui().queryByTestId('price-net')).toBeNull();
    expect(ui().queryByTestId('price-tax')).toBeNull();
    expect(ui().queryByTestId('billing-country')).toBeNull();
  });

  it('names the tax and the countries in the buyer’s language', async () => {
    const api = installApi();
    taxedQuotes(api);
    const { ui } = await mountIndex({ locale: 'de-de' });
    await waitFor(() => expect(ui().getByTestId('price-tax').textContent).toContain('MwSt. 19 % (DE)'));
    expect(ui().getByTestId('price-net').textContent).toContain('Netto');
    expect(ui().getByTestId<HTMLSelectElement>('billing-country').selectedOptions[0]!.textContent).toBe('Deutschland');
  });

  // The form prevents both, but the API decides: a buyer who reaches either answer reads it in
  // their language, not the server's English (the names double as keys of the checkout's errors).
  it.each([
    ['en', 'country_unconfirmed', 'Your billing country differs from where you are connecting from. Please confirm your billing country.'],
    ['en-gb', 'invalid_country', 'Please choose the country of your billing address from the list.'],
    [
      'en-us',
      'country_unconfirmed',
      'Your billing country differs from where you are connecting from. Please confirm your billing country.',
    ],
    [
      'de-de',
      'country_unconfirmed',
      'Das Land Ihrer Rechnungsadresse weicht von dem Land ab, aus dem Sie sich verbinden. Bitte bestätigen Sie es.',
    ],
    ['de-de', 'invalid_country', 'Bitte wählen Sie das Land Ihrer Rechnungsadresse aus der Liste.'],
    ['es-es', 'invalid_country', 'Elija de la lista el país de su dirección de facturación.'],
    ['nl-nl', 'country_unconfirmed', 'Uw factuurland wijkt af van het land waarvandaan u verbinding maakt. Bevestig uw factuurland.'],
    ['pt-pt', 'invalid_country', 'Escolha na lista o país do seu endereço de faturação.'],
  ])('shows %s %s in the buyer’s words', async (locale, name, text) => {
    const api = installApi();
    taxedQuotes(api);
    const server = 'Server English that must not be shown.';
    api.on('order.create', () => apiError(name === 'invalid_country' ? 400 : 409, name, server));
    const { ui } = await mountIndex({ locale });
    fireEvent.change(await ui().findByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    expect(await ui().findByText(text)).toBeTruthy();
    expect(ui().queryByText(server)).toBeNull();
  });
});
