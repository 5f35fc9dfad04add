// The only public surface of @streamcart/widget: importing it defines <streamcart-checkout>.
import { define } from './element/element';

export { StreamcartCheckoutElement, define, TAG } from './element/element';
export type { StreamcartEventMap, StreamcartEventName, StreamcartEvent } from './element/events';
export type { LocaleCode } from './i18n/locale';
export { LOCALES } from './i18n/locale';
export type { Money } from './api/schemas';

define();

declare global {
  interface HTMLElementTagNameMap {
    'streamcart-checkout': import('./element/element').StreamcartCheckoutElement;
  }
  interface HTMLElementEventMap {
    'streamcart:ready': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:ready']>;
    'streamcart:plan-selected': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:plan-selected']>;
    'streamcart:order-created': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:order-created']>;
    'streamcart:payment-started': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:payment-started']>;
    'streamcart:order-paid': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:order-paid']>;
    'streamcart:service-ready': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:service-ready']>;
    'streamcart:session-changed': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:session-changed']>;
    'streamcart:locale-changed': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:locale-changed']>;
    'streamcart:currency-changed': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:currency-changed']>;
    'streamcart:error': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:error']>;
    'streamcart:storefront-loaded': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:storefront-loaded']>;
    'streamcart:currencies-loaded': CustomEvent<import('./element/events').StreamcartEventMap['streamcart:currencies-loaded']>;
  }
}
