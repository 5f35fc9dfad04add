// Public types of @streamcart/widget, shipped as lib/index.d.ts. Written by hand so the package
// exposes exactly what src/index.ts exports (not the widget's internals); types/check.ts fails
// `npm test -w widget` when they drift from the source.
import type * as React from 'react';

/** The element's tag name; importing the package defines it. */
export declare const TAG = 'streamcart-checkout';

export declare const LOCALES: readonly ['en', 'en-us', 'en-gb', 'de-de', 'es-es', 'nl-nl', 'pt-pt'];
export type LocaleCode = (typeof LOCALES)[number];

/** An amount in minor units (cents) and its ISO currency code. */
export interface Money {
  amount: number;
  currency: string;
}

/** `detail` of each event; none carries a secret (token, password, service credentials). */
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
  'streamcart:currencies-loaded': { currencies: { code: string; rate: string; prefix: string; suffix: string }[]; default: string };
}

export type StreamcartEventName = keyof StreamcartEventMap;
/** The bubbling, composed CustomEvent the element dispatches for `K`. */
export type StreamcartEvent<K extends StreamcartEventName> = CustomEvent<StreamcartEventMap[K]>;

/** The element's attributes; each is also a property reflecting it (a string, or null when unset). */
export type StreamcartAttributeName = 'api' | 'store' | 'locale' | 'currency' | 'plan' | 'promocode' | 'routing' | 'base';

/** `<streamcart-checkout>`: the checkout (React in an open shadow root). */
export declare class StreamcartCheckoutElement extends HTMLElement {
  static get observedAttributes(): readonly string[];
  connectedCallback(): void;
  disconnectedCallback(): void;
  attributeChangedCallback(_name: string, old: string | null, value: string | null): void;
  /** Goes to the plan choice, with plan `pid` selected when given. */
  open(pid?: number): void;
  /** Ends the session (DELETE /session), forgets the session and the order, shows the plans. */
  signOut(): Promise<void>;
  /** Switches the language (in history routing also the URL prefix); remembered for 365 days. */
  setLocale(code: string): void;
  /** Switches the price currency (ISO code). */
  setCurrency(code: string): void;
}
export interface StreamcartCheckoutElement extends Record<StreamcartAttributeName, string | null> {}

/** Defines the element under `tag` (the package already did for `streamcart-checkout`). */
export declare function define(tag?: string): void;

declare global {
  interface HTMLElementTagNameMap {
    'streamcart-checkout': StreamcartCheckoutElement;
  }
  interface HTMLElementEventMap {
    'streamcart:ready': StreamcartEvent<'streamcart:ready'>;
    'streamcart:plan-selected': StreamcartEvent<'streamcart:plan-selected'>;
    'streamcart:order-created': StreamcartEvent<'streamcart:order-created'>;
    'streamcart:payment-started': StreamcartEvent<'streamcart:payment-started'>;
    'streamcart:order-paid': StreamcartEvent<'streamcart:order-paid'>;
    'streamcart:service-ready': StreamcartEvent<'streamcart:service-ready'>;
    'streamcart:renewal-paid': StreamcartEvent<'streamcart:renewal-paid'>;
    'streamcart:session-changed': StreamcartEvent<'streamcart:session-changed'>;
    'streamcart:locale-changed': StreamcartEvent<'streamcart:locale-changed'>;
    'streamcart:currency-changed': StreamcartEvent<'streamcart:currency-changed'>;
    'streamcart:error': StreamcartEvent<'streamcart:error'>;
    'streamcart:storefront-loaded': StreamcartEvent<'streamcart:storefront-loaded'>;
    'streamcart:currencies-loaded': StreamcartEvent<'streamcart:currencies-loaded'>;
  }
}

/** What JSX may set on the element. React 19 sets them as properties, which reflect to attributes. */
export interface StreamcartCheckoutAttributes {
  /** API base, absolute or relative to the page (default `/checkout/api`). */
  api?: string;
  /** Publishable storefront key `pk_…`, sent as the `Streamcart-Store` header. */
  store?: string;
  locale?: LocaleCode | 'en-en';
  /** ISO code of the prices (default `EUR`). */
  currency?: string;
  /** pid selected on the plan grid. */
  plan?: number | string;
  promocode?: string;
  routing?: 'memory' | 'history';
  /** History routing's base path, e.g. `/checkout/`. */
  base?: string;
}

/**
 * Event listeners as JSX props: React 19 adds a listener for the name after `on` on a custom
 * element, so `onstreamcart:order-paid={(e) => …}` listens to `streamcart:order-paid`.
 */
export type StreamcartEventProps = {
  [K in StreamcartEventName as `on${K}`]?: (event: StreamcartEvent<K>) => void;
};

export type StreamcartCheckoutProps = React.DetailedHTMLProps<React.HTMLAttributes<StreamcartCheckoutElement>, StreamcartCheckoutElement> &
  StreamcartCheckoutAttributes &
  StreamcartEventProps;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'streamcart-checkout': StreamcartCheckoutProps;
    }
  }
}
