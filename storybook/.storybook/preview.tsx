import type { Preview } from '@storybook/react-vite';
import { LOCALES } from '../../widget/src/i18n/locale';
import currencies from '../../widget/src/test/api/fixtures/catalog.listCurrencies/200.json';
import { Checkout, type CheckoutStory } from '../../widget/src/test/story/Checkout';

// The widget's seven locales (spec §3 display names) and the catalog fixture's currencies.
const LOCALE_NAMES: Record<(typeof LOCALES)[number], string> = {
  en: 'English',
  'en-us': 'English - US',
  'en-gb': 'English - UK',
  'de-de': 'Deutsch',
  'es-es': 'Español',
  'nl-nl': 'Nederlands',
  'pt-pt': 'Português',
};

const preview: Preview = {
  globalTypes: {
    locale: {
      description: 'Language of the checkout',
      toolbar: {
        title: 'Locale',
        icon: 'globe',
        items: LOCALES.map((code) => ({ value: code, title: `${LOCALE_NAMES[code]} (${code})` })),
        dynamicTitle: true,
      },
    },
    currency: {
      description: 'Currency of the prices',
      toolbar: {
        title: 'Currency',
        icon: 'credit',
        items: currencies.currencies.map((c) => ({ value: c.code, title: `${c.code} ${c.prefix}${c.suffix}`.trim() })),
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { locale: 'en', currency: currencies.default },
  parameters: { layout: 'fullscreen' },
  render: (_args, { parameters, globals }) => (
    <Checkout {...(parameters.checkout as CheckoutStory | undefined)} locale={String(globals.locale)} currency={String(globals.currency)} />
  ),
};

export default preview;
