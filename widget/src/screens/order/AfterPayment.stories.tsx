// Back from the payment page (?sc_order=<id>): the waiting view in each order status, the fraud
// view, and the success page.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { click, find, widget } from '../../test/story/play';

export default {
  title: 'Checkout/After payment',
  parameters: { checkout: { session: 'email', url: { sc_order: 'ord_storybook01' } } },
} satisfies Meta;
type Story = StoryObj;

const waiting = (status: string): Story => ({
  parameters: { checkout: { api: { 'order.get': `200.${status}` } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), `[data-testid="waiting-status"][data-status="${status}"]`);
  },
});

/** Not paid yet: "Complete your payment" and "Cancel order". */
export const WaitingForPayment: Story = waiting('pending');
/** A crypto payment Coinbase has seen and is confirming (paymentState processing): no pay or cancel button. */
export const PaymentSeenConfirming: Story = {
  parameters: { checkout: { api: { 'order.get': '200.processing' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), '[data-payment-state="processing"]');
  },
};
/** Paid, the subscription is being set up. */
export const WaitingPaid: Story = waiting('paid');
/** The panel is creating the line. */
export const WaitingProvisioning: Story = waiting('provisioning');
/** The order was cancelled. */
export const OrderCancelled: Story = waiting('cancelled');
/** The payment failed. */
export const PaymentFailed: Story = waiting('failed');

/** "Cancel order" pressed: the confirmation. */
export const CancelQuestion: Story = {
  parameters: { checkout: { api: { 'order.get': '200.pending' } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await click(root, 'cancel-order');
    await find(root, 'cancel-order-confirm');
  },
};

/** Held by the fraud check. */
export const Fraud: Story = {
  parameters: { checkout: { api: { 'order.get': '200.fraud' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'fraud-error');
  },
};

/** Paid when it could no longer be (cancelled, expired, held): the payment is refunded. */
export const PaymentUnderReview: Story = {
  parameters: { checkout: { api: { 'order.get': '200.needs-review' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'review-notice');
  },
};

/** The order is not this visitor's (404). */
export const OrderNotFound: Story = {
  parameters: { checkout: { api: { 'order.get': '404' } } },
};

/** Back without a session (another browser): the order cannot be read. */
export const SignedOut: Story = {
  parameters: { checkout: { session: null } },
};

/** The API cannot be reached while polling: the last status stays with a notice. */
export const PollingNetworkError: Story = {
  parameters: { checkout: { api: { 'order.get': ['200.pending', 'network'] } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), '.sc-alert[role="alert"]');
  },
};

/** Active: setup details, credentials, the M3U download, apps and help cards. */
export const Success: Story = {
  parameters: { checkout: { api: { 'order.get': '200.active' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'credential-username');
  },
};

/** The free trial is active. */
export const SuccessTrial: Story = {
  parameters: { checkout: { url: { sc_order: 'ord_storybooktr' }, api: { 'order.get': '200.trial-active', 'services.get': '200.trial' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'credential-username');
  },
};

/** Active, but the panel has not sent the login details yet. */
export const SuccessCredentialsPending: Story = {
  parameters: { checkout: { api: { 'order.get': '200.active', 'services.get': '200.pending' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), '.sc-success');
  },
};
