// The only public surface of @streamcart/widget: importing it defines <streamcart-checkout>.
import { define } from './element/element';
import type { StreamcartCheckoutElement } from './element/element';
import type { StreamcartEventMap } from './core/events';

export { StreamcartCheckoutElement, define, TAG } from './element/element';
export type { StreamcartEventMap, StreamcartEventName, StreamcartEvent } from './core/events';
export type { LocaleCode } from './i18n/locale';
export { LOCALES } from './i18n/locale';
export type { Money } from './api/schemas';

define();

declare global {
  interface HTMLElementTagNameMap {
    'streamcart-checkout': StreamcartCheckoutElement;
  }
  interface HTMLElementEventMap {
    'streamcart:ready': CustomEvent<StreamcartEventMap['streamcart:ready']>;
    'streamcart:plan-selected': CustomEvent<StreamcartEventMap['streamcart:plan-selected']>;
    'streamcart:order-created': CustomEvent<StreamcartEventMap['streamcart:order-created']>;
    'streamcart:payment-started': CustomEvent<StreamcartEventMap['streamcart:payment-started']>;
    'streamcart:order-paid': CustomEvent<StreamcartEventMap['streamcart:order-paid']>;
    'streamcart:service-ready': CustomEvent<StreamcartEventMap['streamcart:service-ready']>;
    'streamcart:session-changed': CustomEvent<StreamcartEventMap['streamcart:session-changed']>;
    'streamcart:locale-changed': CustomEvent<StreamcartEventMap['streamcart:locale-changed']>;
    'streamcart:currency-changed': CustomEvent<StreamcartEventMap['streamcart:currency-changed']>;
    'streamcart:error': CustomEvent<StreamcartEventMap['streamcart:error']>;
    'streamcart:storefront-loaded': CustomEvent<StreamcartEventMap['streamcart:storefront-loaded']>;
    'streamcart:currencies-loaded': CustomEvent<StreamcartEventMap['streamcart:currencies-loaded']>;
  }
}
