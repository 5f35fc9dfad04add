// /upsell (?sc_view=upsell): extra connections for an active service, and its success page.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { find, pay, slide, widget } from '../../test/story/play';

export default {
  title: 'Account/Upsell',
  parameters: { checkout: { session: 'proven', url: { sc_view: 'upsell' } } },
} satisfies Meta;
type Story = StoryObj;

/** The offer for the first active service, one extra connection. */
export const Offer: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await find(root, 'upsell-after');
  },
};

/** The slider moved to three extra connections. */
export const ThreeConnections: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await find(root, 'upsell-after');
    await slide(root, 'upsell-slider', 3);
    await find(root, 'upsell-quantity', (el) => el.textContent === '+3');
  },
};

/** Not signed in: sign in first. */
export const SignInFirst: Story = {
  parameters: { checkout: { session: null } },
};

/** No active service can take more connections. */
export const NoOffers: Story = {
  parameters: { checkout: { api: { 'upsell.offers': '200.empty' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'upsell-empty');
  },
};

/** The upsell order failed (503). */
export const PaymentFailed: Story = {
  parameters: { checkout: { api: { 'upsell.order': '503' } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await find(root, 'upsell-after');
    await pay(root);
    await find(root, 'upsell-error');
  },
};

/** Paid: back through /waiting to the connections added. */
export const Success: Story = {
  parameters: {
    checkout: {
      url: { sc_order: 'ord_storybook01', sc_upsell: 'svc_storybook01' },
      api: { 'order.get': '200.active', 'services.get': '200.upsold' },
    },
  },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'upsell-success');
  },
};
