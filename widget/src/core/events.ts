// The CustomEvents of the embed contract. Details never carry a secret (no token, no password).
import type { CurrencyList, Money } from '../api/schemas';
import type { LocaleCode } from '../i18n/locale';

export interface StreamcartEventMap {
  'streamcart:ready': { locale: LocaleCode; currency: string; signedIn: boolean; email?: string };
  'streamcart:plan-selected': { pid: number; billingCycle: string };
  'streamcart:order-created': { orderId: string; invoiceId: string; status: string; total: Money };
  'streamcart:payment-started': { orderId: string; gateway: string; paymentUrl: string };
  'streamcart:order-paid': { orderId: string };
  'streamcart:service-ready': { orderId: string; serviceIds: string[] };
  /** A renewal invoice was seen paid (the /renew page, or the services view back from paying). */
  'streamcart:renewal-paid': { invoiceId: string; orderId: string; serviceId: string };
  'streamcart:session-changed': { signedIn: boolean; email?: string };
  'streamcart:locale-changed': { locale: LocaleCode };
  'streamcart:currency-changed': { currency: string };
  'streamcart:error': { name: string; message: string };
  /** GET /storefront answered: the links a host page may show (its own requests would repeat the widget's). */
  'streamcart:storefront-loaded': { supportUrl: string; dashboardUrl: string };
  /** GET /currencies answered: the currencies a host's currency picker may offer, and the default. */
  'streamcart:currencies-loaded': CurrencyList;
}

export type StreamcartEventName = keyof StreamcartEventMap;
export type StreamcartEvent<K extends StreamcartEventName> = CustomEvent<StreamcartEventMap[K]>;

export function emit<K extends StreamcartEventName>(target: EventTarget, name: K, detail: StreamcartEventMap[K]): void {
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}
