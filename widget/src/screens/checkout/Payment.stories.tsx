// Gateways and placing the order: each gateway of the fixture, order creation, the redirect to
// the payment page, a changed price and the order failures.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { click, find, pay, shows, widget } from '../../test/story/play';

export default {
  title: 'Checkout/Payment',
  // An email in the landing URL identifies the buyer, so the pay button can be pressed.
  parameters: { checkout: { url: { email: 'buyer@example.com' } } },
} satisfies Meta;
type Story = StoryObj;

const gateway = (module: string): Story => ({
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await click(root, `[data-testid="gateway-option"][data-module="${module}"]`);
    await find(root, `.sc-gateway.is-selected[data-module="${module}"]`);
  },
});

/** Card through the built-in sandbox (the default gateway). */
export const GatewaySandbox: Story = gateway('sandbox');
/** Card through Stripe Checkout. */
export const GatewayStripe: Story = gateway('stripe');
/** Stripe with "Renew automatically with this card" ticked: the consent text under it. */
export const GatewayStripeRenewWithCard: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await click(root, `[data-testid="gateway-option"][data-module="stripe"]`);
    await click(root, 'renew-with-card');
    await find(root, 'renew-consent');
  },
};
/** Crypto through Coinbase Commerce. */
export const GatewayCoinbase: Story = gateway('coinbase');
/** Crypto through Cryptomus. */
export const GatewayCryptomus: Story = gateway('cryptomus');

/** POST /orders is under way. */
export const CreatingOrder: Story = {
  parameters: { checkout: { api: { 'order.create': 'never' } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await pay(root);
    await shows(root, 'Creating your order');
  },
};

/** The order is created; the buyer is being sent to the gateway's payment page. */
export const RedirectingToPayment: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await pay(root);
    await find(root, 'a.sc-link');
  },
};

/** 409 price_changed: the server's new total must be confirmed. */
export const PriceChanged: Story = {
  parameters: { checkout: { api: { 'order.create': '409.price-changed' } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await pay(root);
    await find(root, 'confirm-price');
  },
};

const failure = (answer: string): Story => ({
  parameters: { checkout: { api: { 'order.create': answer } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await pay(root);
    await find(root, '.sc-summary .sc-alert[role="alert"]');
  },
});

/** 503 unavailable: the payment provider is down. */
export const OrderFailedUnavailable: Story = failure('503');
/** 400 bad_request: the gateway is not available. */
export const OrderFailedGateway: Story = failure('400.gateway');
/** 404 not_found: the plan is no longer sold. */
export const OrderFailedNotFound: Story = failure('404');
/** 422 idempotency_mismatch: the same attempt was sent with other details. */
export const OrderFailedIdempotency: Story = failure('422.idempotency');
/** The API cannot be reached while ordering. */
export const OrderFailedNetwork: Story = failure('network');
/** The order is held by the fraud check at once: the fraud view. */
export const OrderHeldForReview: Story = {
  parameters: { checkout: { api: { 'order.create': '201.fraud', 'order.get': '200.fraud' } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await pay(root);
    await find(root, 'fraud-error');
  },
};

/**
 * The automatic order of spec §4 (?email=…&pid=2&auto_redirect=true): session, product, quote and
 * order without a click, then the payment page. The country lookup fails here, so EUR is used.
 */
export const AutomaticOrder: Story = {
  parameters: { checkout: { url: { email: 'buyer@example.com', pid: '2', auto_redirect: 'true' }, api: { 'geo.lookup': 'network' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'a.sc-link');
  },
};
