// Issue 28: a plan the panel's reseller credits cannot cover comes with available: false. Its card
// says so and cannot be chosen (click, Space, Enter, arrows), the buy button stays off while such a
// plan is the one shown in the form, and an order the server refuses with 409 out_of_stock (the
// credits ran out since the list was read) says so in the buyer's language.
import { fireEvent, waitFor } from '@testing-library/dom';
import { describe, expect, it } from 'vitest';
import { apiError, byDefault, installApi } from '../../test/api/vitest';
import { mountIndex } from '../../test/mount';

type Ui = Awaited<ReturnType<typeof mountIndex>>['ui'];

const card = (ui: Ui, pid: number) =>
  ui()
    .getAllByTestId('plan-card')
    .find((c) => c.dataset.pid === String(pid))!;
const selected = (ui: Ui) =>
  ui()
    .getAllByTestId('plan-card')
    .find((c) => c.getAttribute('aria-checked') === 'true')?.dataset.pid;

/** The catalog as served, with the plans of `off` unavailable. */
function withUnavailable(off: number[]) {
  const api = installApi();
  api.on('catalog.listProducts', async (req) => {
    const list = (await byDefault(req).json()) as { products: { pid: number; available?: boolean }[] };
    for (const p of list.products) p.available = !off.includes(p.pid);
    return list;
  });
  return api;
}

describe('a temporarily unavailable plan', () => {
  it.each([
    ['en', 'Temporarily unavailable'],
    ['en-gb', 'Temporarily unavailable'],
    ['en-us', 'Temporarily unavailable'],
    ['de-de', 'Vorübergehend nicht verfügbar'],
    ['es-es', 'No disponible temporalmente'],
    ['nl-nl', 'Tijdelijk niet beschikbaar'],
    ['pt-pt', 'Temporariamente indisponível'],
  ])('is marked on its card in %s and is not pre-selected', async (locale, text) => {
    withUnavailable([2]);
    const { ui } = await mountIndex({ locale });
    const standard = card(ui, 2);
    await waitFor(() => expect(standard.querySelector('.sc-plan-select')?.textContent).toBe(text));
    expect(standard.getAttribute('aria-disabled')).toBe('true');
    // Read with the card: its description names the state.
    const described = standard.getAttribute('aria-describedby')!.split(' ');
    expect(described.map((id) => standard.querySelector(`#${id}`)?.textContent)).toContain(text);
    expect(card(ui, 3).getAttribute('aria-disabled')).toBeNull();
    // The first paid plan is unavailable: the next one that can be bought is chosen instead.
    await waitFor(() => expect(selected(ui)).toBe('3'));
  });

  it('cannot be chosen by click, Space, Enter or the arrows', async () => {
    withUnavailable([2]);
    const { el, ui, of } = await mountIndex();
    await waitFor(() => expect(selected(ui)).toBe('3'));
    fireEvent.click(card(ui, 2));
    fireEvent.keyDown(card(ui, 2), { key: ' ' });
    fireEvent.keyDown(card(ui, 2), { key: 'Enter' });
    await new Promise((r) => setTimeout(r, 20));
    expect(selected(ui)).toBe('3');
    // An arrow onto it moves the focus there (it stays in the group's reading order) but chooses nothing.
    fireEvent.keyDown(card(ui, 3), { key: 'ArrowLeft' });
    await new Promise((r) => setTimeout(r, 20));
    expect(el.shadowRoot!.activeElement).toBe(card(ui, 2));
    expect(selected(ui)).toBe('3');
    fireEvent.keyDown(card(ui, 2), { key: 'ArrowLeft' });
    await waitFor(() => expect(selected(ui)).toBe('1'));
    fireEvent.keyDown(card(ui, 1), { key: 'ArrowRight' });
    await new Promise((r) => setTimeout(r, 20));
    expect(selected(ui)).toBe('1');
    expect(of('plan-selected').map((d) => (d as { pid: number }).pid)).toEqual([1]);
  });

  it('keeps the buy button off when no plan can be bought', async () => {
    const api = withUnavailable([1, 2, 3]);
    const { ui } = await mountIndex({ plan: '2' });
    await waitFor(() => expect(selected(ui)).toBe('2'));
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toBe('€12.99'));
    await new Promise((r) => setTimeout(r, 20));
    const pay = ui().getByTestId<HTMLButtonElement>('pay-button');
    expect(pay.disabled).toBe(true);
    fireEvent.click(pay);
    await new Promise((r) => setTimeout(r, 20));
    expect(api.callsTo('order.create')).toHaveLength(0);
  });
});

describe('409 out_of_stock from POST /orders', () => {
  const message = 'This plan is temporarily unavailable. Please try again later or choose another plan.';
  it.each([
    ['en', message],
    ['de-de', 'Dieses Paket ist vorübergehend nicht verfügbar. Bitte versuchen Sie es später erneut oder wählen Sie ein anderes Paket.'],
    ['es-es', 'Este plan no está disponible temporalmente. Inténtalo de nuevo más tarde o elige otro plan.'],
    ['nl-nl', 'Dit abonnement is tijdelijk niet beschikbaar. Probeer het later opnieuw of kies een ander abonnement.'],
    ['pt-pt', 'Este plano está temporariamente indisponível. Tente novamente mais tarde ou escolha outro plano.'],
  ])('says the plan is unavailable in %s and keeps the form', async (locale, text) => {
    const api = withUnavailable([]);
    api.on('order.create', () => apiError(409, 'out_of_stock', message));
    const { ui, of } = await mountIndex({ locale });
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    fireEvent.click(ui().getByTestId('pay-button'));
    const alert = await ui().findByText(text);
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(ui().getByTestId<HTMLInputElement>('email-input').value).toBe('buyer@example.com');
    expect(api.callsTo('order.create')).toHaveLength(1);
    expect(of('error')).toContainEqual({ name: 'out_of_stock', message });
  });
});
