// After the sale (?sc_view=services): sign-in by link or password and "My services" with the
// panel actions and the device MAC address.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { click, find, type, widget } from '../../test/story/play';

export default {
  title: 'Account/Services',
  parameters: { checkout: { url: { sc_view: 'services' } } },
} satisfies Meta;
type Story = StoryObj;

/** Not signed in: the sign-in form (emailed link by default). */
export const SignIn: Story = {};

/** Sign-in with a password. */
export const SignInPassword: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await click(root, 'signin-mode-password');
    await find(root, 'signin-password');
  },
};

/** The link was asked for (always the same answer: no account oracle). */
export const SignInLinkSent: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await type(root, 'email-input', 'buyer@example.com');
    await click(root, 'signin-send');
    await find(root, 'signin-sent');
  },
};

const passwordError = (answer: string): Story => ({
  parameters: { checkout: { api: { 'session.create': answer } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await click(root, 'signin-mode-password');
    await type(root, 'email-input', 'buyer@example.com');
    await type(root, 'signin-password', 'not-my-password');
    await click(root, 'signin-submit');
    await find(root, 'signin-error');
  },
});

/** 401 invalid_credentials. */
export const SignInWrongPassword: Story = passwordError('401.invalid-credentials');
/** 429 too_many_attempts. */
export const SignInThrottled: Story = passwordError('429');

/** Landing with an expired sign-in link (?signin=…). */
export const SignInLinkInvalid: Story = {
  parameters: { checkout: { url: { sc_view: 'services', signin: 'expired-link' }, api: { 'session.redeemLink': '401' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), '.sc-alert-warn');
  },
};

/** Signed in: every service with its credentials, MAC address and actions. */
export const Services: Story = {
  parameters: { checkout: { session: 'proven' } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'service-card');
  },
};

/** The services still loading: the skeleton of the page, its status saying what loads. */
export const ServicesLoading: Story = {
  parameters: { checkout: { session: 'proven', api: { 'services.list': 'never' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'services-loading');
  },
};

/** The services shown, "Orders and invoices" still loading: rows of blocks. */
export const OrdersLoading: Story = {
  parameters: { checkout: { session: 'proven', api: { 'order.list': 'never' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'orders-loading');
  },
};

/** No service on the account yet. */
export const ServicesEmpty: Story = {
  parameters: { checkout: { session: 'proven', api: { 'services.list': '200.empty' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'services-empty');
  },
};

/** The services could not be read (500; reading them never asks the panel, so no 503). */
export const ServicesFailed: Story = {
  parameters: { checkout: { session: 'proven', api: { 'services.list': '500' } } },
};

/** The session was refused (401): sign in again. */
export const SessionExpired: Story = {
  parameters: { checkout: { session: 'proven', api: { 'services.list': '401' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), '.sc-alert-warn');
  },
};

/** "Restart" pressed. */
export const ServiceRestarted: Story = {
  parameters: { checkout: { session: 'proven' } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await click(root, 'service-restart');
    await find(root, 'service-message');
  },
};

/** "Terminate" pressed: the confirmation. */
export const TerminateQuestion: Story = {
  parameters: { checkout: { session: 'proven' } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await click(root, 'service-terminate');
    await find(root, 'terminate-confirm');
  },
};

/** Terminated. */
export const ServiceTerminated: Story = {
  parameters: { checkout: { session: 'proven' } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await click(root, 'service-terminate');
    await click(root, 'terminate-yes');
    await find(root, '[data-testid="service-status"][data-status="Terminated"]');
  },
};

/** A MAC address that is not six hex pairs. */
export const MacInvalid: Story = {
  parameters: { checkout: { session: 'proven' } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await type(root, 'mac-input', '00:1A:79');
    await click(root, 'mac-save');
    await find(root, 'mac-error');
  },
};

/** A MAC address saved. */
export const MacSaved: Story = {
  parameters: { checkout: { session: 'proven' } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await type(root, 'mac-input', '00-1a-79-ab-cd-ef');
    await click(root, 'mac-save');
    await find(root, 'service-message');
  },
};
