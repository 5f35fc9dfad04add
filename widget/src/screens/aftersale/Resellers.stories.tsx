// /resellers (?sc_view=resellers): credit plans, the existing-reseller choice, the password pair,
// then the reseller waiting and success pages.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { find, pay, type, widget } from '../../test/story/play';

export default {
  title: 'Resellers',
  parameters: { checkout: { url: { sc_view: 'resellers' } } },
} satisfies Meta;
type Story = StoryObj;

/** The reseller plans, the second pre-selected (spec §9). */
export const Plans: Story = {
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'existing-reseller-no');
  },
};

/** Signed in as an existing reseller: the balance and "Yes" chosen. */
export const ExistingReseller: Story = {
  parameters: { checkout: { session: 'email', api: { 'resellers.me': '200.reseller' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'reseller-status');
  },
};

/** The confirmation differs from the password. */
export const PasswordMismatch: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await type(root, 'reseller-password', 'correct-horse');
    await type(root, 'reseller-password-confirm', 'battery-staple');
    await find(root, 'password-mismatch');
  },
};

/** A password shorter than 8 characters. */
export const WeakPassword: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await type(root, 'email-input', 'reseller@example.com');
    await type(root, 'reseller-password', 'short');
    await pay(root);
    await find(root, '[role="alert"]');
  },
};

const order = async (canvasElement: HTMLElement) => {
  const root = await widget(canvasElement);
  await type(root, 'email-input', 'reseller@example.com');
  await type(root, 'reseller-password', 'correct-horse');
  await type(root, 'reseller-password-confirm', 'correct-horse');
  await pay(root);
  return root;
};

/** WHMCS mode, 409 price_changed: WHMCS invoices another total; the new one is shown to confirm. */
export const PriceChanged: Story = {
  parameters: { checkout: { api: { 'resellers.order': '409.price-changed' } } },
  play: async ({ canvasElement }) => {
    await find(await order(canvasElement), 'reseller-price-changed');
  },
};

/** Ordered and paid: waiting for the reseller account. */
export const Waiting: Story = {
  parameters: { checkout: { api: { 'order.get': '200.paid' } } },
  play: async ({ canvasElement }) => {
    const root = await order(canvasElement);
    await find(root, '[data-testid="waiting-status"][data-status="paid"]');
  },
};

/** The reseller plan is active: credits and account. */
export const Success: Story = {
  parameters: { checkout: { api: { 'order.get': '200.active' } } },
  play: async ({ canvasElement }) => {
    const root = await order(canvasElement);
    await find(root, 'reseller-success');
  },
};
