// The shape of the widget's state (held by a Store in the Controller) and how it starts.
import type { Promotion } from '../api/orders';
import type { Cycle, Quote, Storefront } from '../api/schemas';
import type { LocaleCode } from '../i18n/locale';
import type { Landing } from './landing';
import type { Persisted } from './persisted';
import type { Prefix, Route } from './router';

/** The element's attributes, read (element/attributes.ts). */
export interface Config {
  api: string;
  store: string | null;
  locale: string | null;
  currency: string | null;
  plan: number | null;
  promocode: string | null;
  routing: 'memory' | 'history';
  base: string;
}

export interface Selection {
  pid: number;
  cycle: Cycle | null;
}

/** What the buyer filled in; kept here so it survives the trip through the creating-order view. */
export interface Draft {
  extra: boolean;
  /** Total connections (1 included); see core/options.ts for why the count is a total. */
  connections: number;
  proxy: boolean;
  email: string;
  promoInput: string;
  promo: Promotion | null;
  gateway: string | null;
  subscribe: boolean;
  /** Stripe and a recurring cycle: the buyer agreed to renewals charged to this card. */
  renewWithCard: boolean;
}

export type Attempt =
  | { status: 'idle' }
  | { status: 'creating' }
  | { status: 'redirecting'; paymentUrl: string }
  | { status: 'priceChanged'; quote: Quote }
  | { status: 'failed'; code: string; message: string };

export interface Fatal {
  name: string;
  message: string;
}

export interface State {
  locale: LocaleCode;
  currency: string;
  route: Route;
  prefix: Prefix | null;
  selection: Selection | null;
  draft: Draft;
  attempt: Attempt;
  persisted: Persisted;
  fatal: Fatal | null;
  /** GET /storefront's answer once it has arrived (theme, logo, defaults). */
  storefront: Storefront | null;
}

/** The plan page itself (not an after-sale view on the index route): its plans load first. */
export function plansFirst(route: Route): boolean {
  return route.name === '' && !route.query.view && !route.query.signin;
}

/** The form as the landing parameters, the promocode attribute and the stored email fill it. */
export function initialDraft(landing: Landing, promocode: string | null, persisted: Persisted): Draft {
  return {
    extra: (landing.connections ?? 1) > 1,
    connections: Math.max(1, landing.connections ?? 1),
    proxy: landing.proxyProtection,
    email: landing.email || persisted.user.email,
    promoInput: (promocode ?? landing.promocode ?? '').toUpperCase(),
    promo: null,
    gateway: null,
    subscribe: false,
    renewWithCard: false,
  };
}
