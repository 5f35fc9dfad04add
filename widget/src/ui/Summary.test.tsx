import { fireEvent, waitFor } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { renderInFrame } from '../test/frame';
import { currencies, plans, quote } from '../test/story/data';
import { Summary } from './Summary';

type Props = ComponentProps<typeof Summary>;

function props(over: Partial<Props> = {}): Props {
  return {
    product: plans()[1]!,
    cycle: 'monthly',
    extra: 0,
    quote: quote({ pid: 2, billingCycle: 'monthly' }),
    quoteLoading: false,
    quoteError: null,
    currencies: currencies(),
    attempt: { status: 'idle' },
    subscribe: false,
    onSubscribe: vi.fn(),
    canPay: true,
    onPay: vi.fn(),
    onConfirmPrice: vi.fn(),
    ...over,
  };
}

/** The summary's lines as "label: amount". */
function lines(shadow: ShadowRoot): string[] {
  return [...shadow.querySelectorAll('.sc-line')].map(
    (l) => `${l.querySelector('dt')?.textContent}: ${l.querySelector('dd')?.textContent}`,
  );
}

describe('Summary', () => {
  it('shows the quote’s lines, its total and a pay button that pays', async () => {
    const p = props({ extra: 2, quote: quote({ pid: 2, billingCycle: 'monthly', extraConnections: 2, proxyProtection: true }) });
    const { ui, shadow } = await renderInFrame(<Summary {...p} />);
    expect(ui.getByRole('complementary', { name: 'Order summary' })).toBeTruthy();
    expect(lines(shadow)).toEqual(['Standard · Monthly: €12.99', '2 extra connections: €6.00', 'Proxy protection: €2.00']);
    expect(ui.getByTestId('price-total').textContent).toBe('€20.99');
    const pay = ui.getByTestId<HTMLButtonElement>('pay-button');
    expect(pay.textContent).toBe(' Pay €20.99');
    fireEvent.click(pay);
    expect(p.onPay).toHaveBeenCalledTimes(1);
  });

  it('shows a promo code as subtotal and discount', async () => {
    const { ui, shadow } = await renderInFrame(
      <Summary {...props({ quote: quote({ pid: 2, billingCycle: 'monthly', promoCode: 'WELCOME10' }) })} />,
    );
    expect(lines(shadow)).toEqual(['Standard · Monthly: €12.99', 'Subtotal: €12.99', 'Discount (WELCOME10): −€1.30']);
    expect(ui.getByTestId('price-total').textContent).toBe('€11.69');
  });

  it('shows another currency’s total in the default one, with the rate', async () => {
    const { ui } = await renderInFrame(<Summary {...props({ quote: quote({ pid: 2, billingCycle: 'monthly', currency: 'USD' }) })} />);
    expect(ui.getByTestId('price-total').textContent).toBe('$14.03');
    expect(ui.getByText('≈ €12.99 · 1 EUR = 1.08 USD')).toBeTruthy();
  });

  it('starts a free trial without a card', async () => {
    const p = props({ product: plans()[0]!, cycle: 'onetime', quote: quote({ pid: 1, billingCycle: 'onetime' }) });
    const { ui } = await renderInFrame(<Summary {...p} />);
    expect(ui.getByTestId('pay-button').textContent).toBe('Start free trial');
    expect(ui.getAllByText('No credit card required').length).toBeGreaterThan(0);
  });

  // A trial in a taxed shop (issue 25 walk): it showed "Free Trial · One-time payment" and a net and
  // a VAT of €0.00; its name alone, and no tax lines where nothing is paid.
  it('names a free trial without a payment cycle and shows no tax of nothing', async () => {
    const tax = { country: 'DE', rate: '19', amount: 0, currency: 'EUR', pricesIncludeTax: true, ipCountry: 'DE' };
    const trial = { ...quote({ pid: 1, billingCycle: 'onetime' }), net: { amount: 0, currency: 'EUR' }, tax };
    const { ui, shadow } = await renderInFrame(<Summary {...props({ product: plans()[0]!, cycle: 'onetime', quote: trial })} />);
    expect(lines(shadow)).toEqual([`${plans()[0]!.name}: €0.00`]);
    expect(ui.queryByTestId('price-tax')).toBeNull();
    expect(ui.queryByTestId('price-net')).toBeNull();
  });

  it('keeps the pay button off until it can pay, and while the order is created', async () => {
    const p = props({ canPay: false });
    const { ui, rerender } = await renderInFrame(<Summary {...p} />);
    const pay = ui.getByTestId<HTMLButtonElement>('pay-button');
    expect(pay.disabled).toBe(true);
    expect(pay.getAttribute('aria-disabled')).toBe('true');
    rerender(<Summary {...p} canPay attempt={{ status: 'creating' }} />);
    await waitFor(() => expect(pay.textContent).toBe(' Processing…'));
    expect(pay.disabled).toBe(true);
    expect(pay.getAttribute('aria-busy')).toBe('true');
    fireEvent.click(pay);
    expect(p.onPay).not.toHaveBeenCalled();
  });

  it('waits for the first price', async () => {
    const { ui } = await renderInFrame(<Summary {...props({ quote: null, quoteLoading: true, canPay: false })} />);
    expect(ui.getByTestId('price-total').textContent).toBe('—');
    expect(ui.getByText('Updating price…')).toBeTruthy();
    expect(ui.getByTestId('pay-button').textContent).toBe('Pay …');
  });

  it('says why the price could not be fetched', async () => {
    const error = new ApiError('network', 0, 'offline');
    const { ui } = await renderInFrame(<Summary {...props({ quote: null, quoteError: error })} />);
    expect(ui.getByRole('alert').textContent).toBe('We could not reach the server. Please check your connection.');
  });

  it('asks to confirm a changed price', async () => {
    const p = props({ attempt: { status: 'priceChanged', quote: quote({ pid: 3, billingCycle: 'monthly' }) } });
    const { ui } = await renderInFrame(<Summary {...p} />);
    expect(ui.getByRole('alert').textContent).toContain('The price has changed to €15.99. Please confirm the new price to continue.');
    fireEvent.click(ui.getByRole('button', { name: 'Confirm new price' }));
    expect(p.onConfirmPrice).toHaveBeenCalledTimes(1);
  });

  it('shows an order failure by its name', async () => {
    const { ui } = await renderInFrame(
      <Summary {...props({ attempt: { status: 'failed', code: 'unavailable', message: 'Try later' } })} />,
    );
    expect(ui.getByRole('alert').textContent).toBe('The service is busy right now. Please try again in a moment.');
  });

  it('hands the newsletter box to its owner', async () => {
    const p = props();
    const { ui } = await renderInFrame(<Summary {...p} />);
    fireEvent.click(ui.getByRole('checkbox', { name: 'Send me news and special offers by email' }));
    expect(p.onSubscribe).toHaveBeenCalledWith(true);
  });
});
