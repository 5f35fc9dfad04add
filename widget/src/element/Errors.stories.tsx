// Error states of the checkout: the API unreachable, an unknown currency, email errors, an answer
// that breaks the contract, and the 404 view.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { click, find, pay, type, widget } from '../test/story/play';

export default { title: 'Checkout/Errors' } satisfies Meta;
type Story = StoryObj;

/** The catalog cannot be loaded (network error): the retry view. */
export const NetworkErrorCatalog: Story = {
  parameters: { checkout: { api: { 'catalog.listProducts': 'network' } } },
};

/** The plans loaded but the price cannot be fetched (network error on POST /quote). */
export const NetworkErrorPrice: Story = {
  parameters: { checkout: { api: { 'pricing.quote': 'network' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), '.sc-summary .sc-alert');
  },
};

/** A currency the catalog does not have (currency="XYZ"): GET /products answers 400. */
export const UnknownCurrency: Story = {
  parameters: { checkout: { attrs: { currency: 'XYZ' } } },
};

/** A price asked in a currency the server refuses (POST /quote answers 400 "Unknown currency."). */
export const UnknownCurrencyPrice: Story = {
  parameters: { checkout: { api: { 'pricing.quote': '400.unknown-currency' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), '.sc-summary .sc-alert');
  },
};

/** An email that breaks the spec's rule (landing ?email=buyer@example). */
export const InvalidEmail: Story = {
  parameters: { checkout: { url: { email: 'buyer@example' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'email-error');
  },
};

/** Typing an invalid email, then leaving the field. */
export const InvalidEmailTyped: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await type(root, 'email-input', 'buyer at example.com');
    await click(root, 'promo-input', () => true);
    await find(root, 'email-error');
  },
};

/** Pay pressed without an email. */
export const EmailRequired: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await pay(root);
    await find(root, 'email-error');
  },
};

/** The server refuses the email (POST /session 400 invalid_email) when the order is placed. */
export const EmailRejectedByServer: Story = {
  parameters: { checkout: { api: { 'session.create': '400.invalid-email' } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await type(root, 'email-input', 'buyer@example.invalid');
    await pay(root);
    await find(root, '.sc-summary .sc-alert[role="alert"]');
  },
};

/** An answer that breaks the contract (a product without its prices): the generic error view. */
export const MalformedAnswer: Story = {
  parameters: {
    checkout: {
      api: {
        'catalog.listProducts': () => ({ status: 200, body: { products: [{ pid: 2, name: 'Standard' }] }, offContract: true }),
      },
    },
  },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'error-view');
  },
};

/** An address the checkout does not have (history routing under /checkout/): the 404 view. */
export const NotFound: Story = {
  parameters: { checkout: { attrs: { routing: 'history', base: '/checkout/' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'not-found');
  },
};
