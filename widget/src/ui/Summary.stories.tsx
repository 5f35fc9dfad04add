// The order summary of the checkout form: lines, discount, total, conversion, the pay button and
// the order's failures, for quotes priced as POST /quote prices the catalog fixture.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { fn } from 'storybook/test';
import { inFrame } from '../test/story/Frame';
import { currencies, plans, quote } from '../test/story/data';
import { Summary } from './Summary';

const [trial, standard] = plans();

const meta = {
  title: 'UI/Summary',
  component: Summary,
  render: inFrame(Summary),
  args: {
    product: standard!,
    cycle: 'monthly',
    extra: 0,
    quote: quote({ pid: 2, billingCycle: 'monthly' }),
    quoteLoading: false,
    quoteError: null,
    currencies: currencies(),
    attempt: { status: 'idle' },
    subscribe: false,
    onSubscribe: fn(),
    canPay: true,
    onPay: fn(),
    onConfirmPrice: fn(),
  },
} satisfies Meta<typeof Summary>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Standard, monthly: one line, "Pay €12.99". */
export const Default: Story = {};

/** Two extra connections and proxy protection. */
export const WithExtras: Story = {
  args: { extra: 2, quote: quote({ pid: 2, billingCycle: 'monthly', extraConnections: 2, proxyProtection: true }) },
};

/** A promo code: subtotal, discount line, reduced total. */
export const Discount: Story = {
  args: { quote: quote({ pid: 2, billingCycle: 'monthly', promoCode: 'WELCOME10' }) },
};

/** A catalog with a tax block, prices including tax: net and the VAT line (rate, country) above the total. */
export const WithTax: Story = {
  args: {
    quote: {
      ...quote({ pid: 2, billingCycle: 'monthly', promoCode: 'WELCOME10' }),
      net: { amount: 982, currency: 'EUR' },
      tax: { country: 'DE', rate: '19', amount: 187, currency: 'EUR', pricesIncludeTax: true, ipCountry: 'DE' },
    },
  },
};

/** Priced in dollars: the approximate amount in the default currency and the rate. */
export const OtherCurrency: Story = {
  args: { quote: quote({ pid: 2, billingCycle: 'monthly', currency: 'USD' }) },
};

/** The free trial: nothing to pay, "Start free trial". */
export const FreeTrial: Story = {
  args: { product: trial!, cycle: 'onetime', quote: quote({ pid: 1, billingCycle: 'onetime' }) },
};

/** The first quote is still loading: the pay button waits. */
export const PriceLoading: Story = { args: { quote: null, quoteLoading: true, canPay: false } };

/** The email is missing or invalid: the pay button is off. */
export const CannotPay: Story = { args: { canPay: false } };

/** The order is being created. */
export const Creating: Story = { args: { attempt: { status: 'creating' } } };

/** The price changed when the order was placed: confirm the new one. */
export const PriceChanged: Story = {
  args: { attempt: { status: 'priceChanged', quote: quote({ pid: 3, billingCycle: 'monthly' }) } },
};

/** The order failed with a known error. */
export const OrderFailed: Story = {
  args: { attempt: { status: 'failed', code: 'unavailable', message: 'Try later' } },
};
