// The index screen: plan grid, options, details, promo code, summary.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { find, shows, widget } from '../../test/story/play';

export default { title: 'Checkout/Plans' } satisfies Meta;
type Story = StoryObj;

/** The catalog fixture's three plans, the first paid plan selected. */
export const Default: Story = {};

/** The catalog is still loading: skeleton cards. */
export const Loading: Story = {
  parameters: { checkout: { api: { 'catalog.listProducts': 'never' } } },
};

/** No plan on sale (GET /products answers an empty list). */
export const EmptyCatalog: Story = {
  parameters: { checkout: { api: { 'catalog.listProducts': '200.empty' } } },
};

/** The free trial selected: nothing to pay, no gateway, "Start free trial". */
export const FreeTrial: Story = {
  parameters: { checkout: { attrs: { plan: '1' } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await find(root, 'pay-button', (b) => !(b as HTMLButtonElement).disabled);
  },
};

/** The most expensive plan with 3 connections and proxy protection (landing ?extraconnect=3&proxyprotect=true). */
export const ExtrasSelected: Story = {
  parameters: { checkout: { attrs: { plan: '3' }, url: { extraconnect: '3', proxyprotect: 'true' } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await shows(root, '2 extra connections');
  },
};

/** A promo code that applies (WELCOME10, 10 % off): applied message and discount line. */
export const PromoApplied: Story = {
  parameters: { checkout: { attrs: { promocode: 'WELCOME10' } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await find(root, 'promo-remove');
    await find(root, '.sc-line-discount');
  },
};

/** A code that exists but not for this plan (SAVE5 is for Premium only). */
export const PromoNotApplicable: Story = {
  parameters: { checkout: { attrs: { plan: '2', promocode: 'SAVE5' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'promo-message');
  },
};

/** A code the API does not know or that has expired: the server's message. */
export const PromoUnknown: Story = {
  parameters: { checkout: { attrs: { promocode: 'SUMMER2020' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'promo-message');
  },
};

/** Signed in: the email comes from the session. */
export const SignedIn: Story = {
  parameters: { checkout: { session: 'email' } },
  play: async ({ canvasElement }) => {
    await find<HTMLInputElement>(await widget(canvasElement), 'email-input', (el) => el.value === 'buyer@example.com');
  },
};

/** Prices in another currency than the catalog's default: the total with its conversion line. */
export const OtherCurrency: Story = {
  parameters: { checkout: { attrs: { currency: 'USD' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), '.sc-conversion');
  },
};

/** GET /currencies fails: prices still show, without the conversion line. */
export const CurrenciesUnavailable: Story = {
  parameters: { checkout: { attrs: { currency: 'USD' }, api: { 'catalog.listCurrencies': 'network' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'pay-button', (b) => !(b as HTMLButtonElement).disabled);
  },
};

/** The price of the current choice is being asked for (POST /quote under way). */
export const PriceLoading: Story = {
  parameters: { checkout: { api: { 'pricing.quote': 'never' } } },
};
