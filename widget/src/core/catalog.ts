// Keys of the catalog reads the controller caches (Controller.cached): every screen that reads the
// catalog names its answer with these, so a screen reuses what another (or the prefetch) asked for.
import type { LocaleCode } from '../i18n/locale';

export const catalogKey = {
  products: (group: 'plan' | 'reseller', currency: string, locale: LocaleCode) => `products:${group}:${currency}:${locale}`,
  gateways: (locale: LocaleCode) => `gateways:${locale}`,
  currencies: 'currencies',
  storefront: (locale: LocaleCode) => `storefront:${locale}`,
};
