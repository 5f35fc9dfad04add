// The widget's shared state outside React: the element's methods, the router and the persisted
// cookie all go through here; React subscribes with useSyncExternalStore.
import { createClient, type Client } from '../api/client';
import type { CurrencyList, Cycle, Product, Promotion, Quote, Storefront } from '../api/schemas';
import { emit, type StreamcartEventMap, type StreamcartEventName } from '../element/events';
import { normalizeLocale, resolveLocale, type LocaleCode } from '../i18n/locale';
import { loadMessages } from '../i18n/messages';
import { browser } from './browser';
import { catalogKey } from './catalog';
import { readBrowserLang, readCookie, writeBrowserLang, writeCookie } from './cookie';
import { automaticOrderDue, readLanding, type Landing } from './landing';
import { loadPersisted, savePersisted, signedOut, type Persisted } from './persisted';
import { formatLocation, isPrefix, parseLocation, queryOf, type Prefix, type Route, type RouteName } from './router';

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
  /** Total connections (1 included); see flow/options.ts for why the count is a total. */
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
function plansFirst(route: Route): boolean {
  return route.name === '' && !route.query.view && !route.query.signin;
}

/** The currency a product list is priced in ('' when it has no price at all). */
function answerCurrency(list: { products: Product[] }): string {
  for (const p of list.products) for (const price of Object.values(p.pricing)) return price.currency.toUpperCase();
  return '';
}

/**
 * The buyer's own currency choice (setCurrency), kept for the tab per storefront key: the trip to
 * the payment page reloads the host page, and a page without a currency attribute would start
 * again in the storefront's default. `code` stores it; without, the stored one (null: none, or no
 * storage in this frame).
 */
function chosenCurrency(store: string | null, code?: string): string | null {
  const key = `streamcart:currency:${store ?? ''}`;
  try {
    if (code) sessionStorage.setItem(key, code);
    const v = sessionStorage.getItem(key);
    return v && /^[A-Z]{3}$/.test(v) ? v : null;
  } catch {
    return null;
  }
}

export const AFFILIATE_COOKIE = 'aff_id';
const AFFILIATE_MAX_AGE = 7_776_000; // 90 days

function languages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

export class Controller {
  readonly host: HTMLElement;
  readonly landing: Landing;
  config: Config;
  client: Client;
  private state: State;
  private listeners = new Set<() => void>();
  private emitted = new Set<string>();

  /**
   * The landing asks for the automatic order (spec §4): the widget starts on the creating-order view,
   * never showing the plans first, and the order starts once the flow is up (checkout/landing.ts).
   */
  readonly autoOrderDue: boolean;

  constructor(host: HTMLElement, config: Config) {
    this.host = host;
    this.config = config;
    this.landing = readLanding(location.search);
    const initial = this.readRoute();
    this.autoOrderDue = automaticOrderDue(this.landing, initial.route);
    const { route, prefix } = this.autoOrderDue ? { ...initial, route: { name: 'creatingOrder' as const, query: {} } } : initial;
    const cookie = readBrowserLang();
    const chosen = config.currency ? null : chosenCurrency(config.store);
    // Neither the page, the buyer nor the URL chose a language: the storefront's default replaces
    // the browser-language guess once it is known.
    this.localeFromStore = !normalizeLocale(config.locale) && !normalizeLocale(cookie) && !prefix;
    this.state = {
      locale: resolveLocale({ attribute: config.locale, cookie, prefix, languages: languages() }),
      // No currency attribute: the buyer's earlier choice in this tab, else on the plan page the
      // products are asked for without one, so the server answers in the storefront's default
      // currency and no other price is ever shown; '' until that answer (or the storefront's) names
      // it. Elsewhere EUR until the storefront answers.
      currency: config.currency ? config.currency.toUpperCase() : (chosen ?? (plansFirst(route) ? '' : 'EUR')),
      route,
      prefix,
      selection: null,
      draft: {
        extra: (this.landing.connections ?? 1) > 1,
        connections: Math.max(1, this.landing.connections ?? 1),
        proxy: this.landing.proxyProtection,
        email: this.landing.email ?? '',
        promoInput: (config.promocode ?? this.landing.promocode ?? '').toUpperCase(),
        promo: null,
        gateway: null,
        subscribe: false,
        renewWithCard: false,
      },
      attempt: this.autoOrderDue ? { status: 'creating' } : { status: 'idle' },
      persisted: loadPersisted(),
      fatal: null,
      storefront: null,
    };
    this.currencyFromStore = !config.currency && !chosen;
    const plan = config.plan ?? this.landing.pid;
    if (plan) this.state.selection = { pid: plan, cycle: null };
    if (!this.state.draft.email && this.state.persisted.user.email) {
      this.state.draft = { ...this.state.draft, email: this.state.persisted.user.email };
    }
    this.client = this.makeClient();
    this.rememberAffiliate();
    // Start fetching the table now; the first paint waits for it.
    void loadMessages(this.state.locale);
  }

  private idempotency: { body: string; key: string } | null = null;
  private cache = new Map<string, Promise<unknown>>();
  /** The answers of `cache` that have arrived, for a first render without a loading state. */
  private settled = new Map<string, unknown>();

  /** Memoised GET for data that does not change while the page is open; failures are retried. */
  cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.cache.get(key) as Promise<T> | undefined;
    if (hit) return hit;
    const cache = this.cache;
    const p = load();
    cache.set(key, p);
    // The host page's currency picker offers the list the widget read (one request for both).
    if (key === catalogKey.currencies) {
      p.then(
        (list) => this.emit('streamcart:currencies-loaded', list as CurrencyList),
        () => undefined,
      );
    }
    p.then(
      (value) => {
        if (this.cache === cache && cache.get(key) === p) this.settled.set(key, value);
      },
      () => {
        if (cache.get(key) === p) cache.delete(key);
      },
    );
    return p;
  }

  /** The answer cached under `key` when it has already arrived. */
  peek(key: string): { value: unknown } | undefined {
    return this.settled.has(key) ? { value: this.settled.get(key) } : undefined;
  }

  /**
   * Starts catalog reads early, under the keys the plan page reads them with. 'plans' (when the
   * element connects, so the network overlaps React's start-up): the products the plan cards show.
   * 'checkout' (once they are painted): the gateways and currencies of the form below them.
   */
  prefetch(what: 'plans' | 'checkout'): void {
    const { route, locale, currency } = this.state;
    if (!plansFirst(route)) {
      // Off the plan page nothing waits for the form's data: the currencies (which the host page's
      // picker shows) are read at once, still once per page.
      if (what === 'plans') void this.cached(catalogKey.currencies, () => this.client.currencies());
      return;
    }
    if (what === 'plans') {
      const plans = this.cached(catalogKey.products('plan', currency, locale), () => this.client.products(currency, locale));
      // The prices' currency is the storefront's default one.
      if (!currency)
        plans.then(
          (list) => this.fillCurrency(answerCurrency(list)),
          () => undefined,
        );
    } else {
      void this.cached(catalogKey.gateways(locale), () => this.client.gateways(locale));
      void this.cached(catalogKey.currencies, () => this.client.currencies());
    }
  }

  /** True while the storefront's default language may still replace the current one. */
  private localeFromStore: boolean;
  /** True while the storefront's default currency may still replace the current one. */
  private currencyFromStore: boolean;
  private currencyKnown: Array<() => void> = [];

  /**
   * GET /storefront (from the element's connection, under the key the success and waiting views
   * read it with): its theme and logo are shown as soon as it arrives, and its default language and
   * currency apply where neither the page nor the buyer chose one.
   */
  loadStorefront(): void {
    const { locale } = this.state;
    const cache = this.cache;
    this.cached(catalogKey.storefront(locale), () => this.client.storefront(locale)).then(
      (storefront) => {
        // The page named another storefront (store or api attribute) meanwhile.
        if (this.cache !== cache) return;
        const patch: Partial<State> = { storefront };
        this.emit('streamcart:storefront-loaded', { supportUrl: storefront.supportUrl, dashboardUrl: storefront.dashboardUrl });
        const wanted = this.localeFromStore ? normalizeLocale(storefront.defaultLocale) : null;
        // The buyer's own regional variant of the storefront's language (en-us for en) stays.
        if (wanted && wanted.slice(0, 2) !== this.state.locale.slice(0, 2)) {
          patch.locale = wanted;
          void loadMessages(wanted);
          queueMicrotask(() => this.emit('streamcart:locale-changed', { locale: wanted }));
        }
        this.localeFromStore = false;
        this.set(patch);
        const code = storefront.defaultCurrency.trim().toUpperCase();
        if (!this.state.currency) this.fillCurrency(code);
        else if (this.currencyFromStore && /^[A-Z]{3}$/.test(code)) this.set({ currency: code });
        this.currencyFromStore = false;
      },
      // An older server or a network failure: the widget's own defaults stay.
      () => this.fillCurrency('EUR'),
    );
  }

  /** Calls `fn` once the state has a currency (see `currency` in the constructor). */
  whenCurrency(fn: () => void): void {
    if (this.state.currency) fn();
    else this.currencyKnown.push(fn);
  }

  /**
   * Settles the plan page's currency ('' until then). The products asked for without a currency
   * are the ones in this currency: the cache serves them under its key too, without a new request.
   */
  private fillCurrency(code: string): void {
    if (this.state.currency || !/^[A-Z]{3}$/.test(code)) return;
    const { locale } = this.state;
    const pending = this.cache.get(catalogKey.products('plan', '', locale));
    const key = catalogKey.products('plan', code, locale);
    if (pending && !this.cache.has(key)) {
      const done = this.peek(catalogKey.products('plan', '', locale));
      void this.cached(key, () => pending);
      if (done) this.settled.set(key, done.value);
    }
    this.currencyFromStore = false;
    this.set({ currency: code });
  }

  setDraft(patch: Partial<Draft>): void {
    this.set({ draft: { ...this.state.draft, ...patch } });
  }

  setAttempt(attempt: Attempt): void {
    this.set({ attempt });
  }

  /** One Idempotency-Key per order attempt: the same body retried keeps it, a new body gets a new one. */
  idempotencyKey(body: string): string {
    if (this.idempotency?.body !== body) this.idempotency = { body, key: browser.uuid() };
    return this.idempotency.key;
  }

  forgetIdempotencyKey(): void {
    this.idempotency = null;
  }

  // ---- store ---------------------------------------------------------------------------------

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getState = (): State => this.state;

  private set(patch: Partial<State>): void {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
    if (this.state.currency && this.currencyKnown.length) for (const fn of this.currencyKnown.splice(0)) fn();
  }

  emit<K extends StreamcartEventName>(name: K, detail: StreamcartEventMap[K]): void {
    emit(this.host, name, detail);
  }

  /** Emits an event once per key (an order is paid once, however often the page polls). */
  emitOnce<K extends StreamcartEventName>(key: string, name: K, detail: StreamcartEventMap[K]): void {
    if (this.emitted.has(key)) return;
    this.emitted.add(key);
    this.emit(name, detail);
  }

  private makeClient(): Client {
    return createClient({
      base: this.config.api,
      store: this.config.store,
      token: () => this.state.persisted.token || null,
      language: () => this.state.locale,
    });
  }

  // ---- configuration (attributes) -------------------------------------------------------------

  configure(next: Config): void {
    const prev = this.config;
    this.config = next;
    const patch: Partial<State> = {};
    if (prev.api !== next.api || prev.store !== next.store) {
      this.client = this.makeClient();
      this.cache = new Map();
      this.settled.clear();
      // Another storefront: its own theme and logo (the language and currency stay as they are).
      patch.storefront = null;
      queueMicrotask(() => this.loadStorefront());
    }
    if (next.locale !== prev.locale) {
      this.localeFromStore = false;
      const locale = normalizeLocale(next.locale);
      if (locale && locale !== this.state.locale) {
        patch.locale = locale;
        queueMicrotask(() => this.emit('streamcart:locale-changed', { locale }));
      }
    }
    if (next.currency !== prev.currency && next.currency) this.applyCurrency(next.currency, patch);
    if (next.plan !== prev.plan && next.plan) patch.selection = { pid: next.plan, cycle: null };
    if (next.promocode !== prev.promocode && next.promocode) {
      patch.draft = { ...this.state.draft, promoInput: next.promocode.toUpperCase(), promo: null };
    }
    if (next.routing !== prev.routing || next.base !== prev.base) Object.assign(patch, this.readRoute());
    if (Object.keys(patch).length) this.set(patch);
  }

  private readRoute(): { route: Route; prefix: Prefix | null } {
    if (this.config.routing === 'history') return parseLocation(location.pathname, location.search, this.config.base);
    // Memory routing: the payment provider sends the buyer back to this page with ?sc_order=<id>.
    const q = queryOf(location.search);
    // A renewal's pay link opened on this page (?sc_invoice=…&sc_t=…), or the payment's return to it.
    if (q.sc_invoice) {
      const query: Record<string, string> = { invoice: q.sc_invoice, t: q.sc_t ?? '' };
      if (q.sc_return) query.return = q.sc_return;
      return { route: { name: 'renew', query }, prefix: null };
    }
    if (q.sc_order)
      return { route: { name: 'waiting', query: { order: q.sc_order, ...(q.sc_upsell ? { upsell: q.sc_upsell } : {}) } }, prefix: null };
    // A sign-in link (?signin=) or a page of the after-sale screens (?sc_view=services|upsell).
    if (q.signin || q.sc_view) {
      const name: RouteName = q.sc_view === 'upsell' ? 'upsell' : q.sc_view === 'resellers' ? 'resellers' : '';
      const query: Record<string, string> = name === '' ? { view: 'services' } : {};
      if (q.signin) query.signin = q.signin;
      return { route: { name, query }, prefix: null };
    }
    return { route: { name: '', query: {} }, prefix: null };
  }

  /** popstate: the browser's back/forward buttons in history mode. */
  syncFromLocation = (): void => {
    if (this.config.routing !== 'history') return;
    this.set(this.readRoute());
  };

  // ---- navigation -----------------------------------------------------------------------------

  navigate(name: RouteName, query: Record<string, string> = {}, opts: { replace?: boolean } = {}): void {
    if (this.config.routing === 'history') {
      const url = formatLocation(this.config.base, this.state.prefix, name, query);
      if (opts.replace) history.replaceState(history.state, '', url);
      else history.pushState(null, '', url);
      browser.scrollToTop();
    } else if (this.host.getBoundingClientRect().top < 0) {
      this.host.scrollIntoView?.({ block: 'start' });
    }
    this.set({ route: { name, query }, fatal: null });
  }

  /**
   * The URL the payment provider sends the buyer back to. `{orderId}` is filled in by the API;
   * `upsell` names the service an extra-connection order is for.
   */
  returnUrl(waiting: 'waiting' | 'resellers/waiting' = 'waiting', upsell?: string): string {
    const extra = upsell ? `&${new URLSearchParams(this.config.routing === 'history' ? { upsell } : { sc_upsell: upsell })}` : '';
    if (this.config.routing === 'history') {
      return formatLocation(this.config.base, this.state.prefix, waiting, {}) + '?order={orderId}' + extra;
    }
    return `${this.pageUrl()}sc_order={orderId}${extra}`;
  }

  /** Where a renewal invoice's payment page sends the buyer back: its /renew page, marked as a return. */
  renewReturnUrl(invoice: string, t: string): string {
    if (this.config.routing === 'history') return formatLocation(this.config.base, this.state.prefix, 'renew', { invoice, t, return: '1' });
    return `${this.pageUrl()}${new URLSearchParams({ sc_invoice: invoice, sc_t: t, sc_return: '1' })}`;
  }

  /** This page without the widget's own parameters, ending in "?" or "&" for more. */
  private pageUrl(): string {
    const u = new URL(location.href);
    for (const k of ['auto_redirect', 'sc_order', 'sc_upsell', 'sc_view', 'signin', 'sc_invoice', 'sc_t', 'sc_return'])
      u.searchParams.delete(k);
    u.hash = '';
    return `${u.toString()}${u.search ? '&' : '?'}`;
  }

  /** The address of an after-sale page (a sign-in link's return URL; the API adds ?signin=). */
  viewUrl(view: 'services' | 'upsell'): string {
    if (this.config.routing === 'history') {
      return view === 'upsell'
        ? formatLocation(this.config.base, this.state.prefix, 'upsell')
        : formatLocation(this.config.base, this.state.prefix, '', { view: 'services' });
    }
    return `${this.pageUrl()}sc_view=${view}`;
  }

  /** Link target for the services view: a real href in history routing. */
  servicesHref(): string {
    return this.config.routing === 'history' ? this.viewUrl('services') : '#';
  }

  /** Drops a used sign-in token from the address bar (it works once; a reload must not reuse it). */
  forgetSigninParam(): void {
    const { route } = this.state;
    if (!route.query.signin) return;
    const { signin: _used, ...rest } = route.query;
    // A link to the index lands on the services view; keep it there.
    const query = route.name === '' ? { ...rest, view: 'services' } : rest;
    if (this.config.routing === 'history') {
      this.navigate(route.name, query, { replace: true });
      return;
    }
    const u = new URL(location.href);
    u.searchParams.delete('signin');
    history.replaceState(history.state, '', u.toString());
    this.set({ route: { name: route.name, query } });
  }

  homeHref(): string {
    if (this.config.routing === 'history') return formatLocation(this.config.base, this.state.prefix, '');
    return '#';
  }

  // ---- selection, locale, currency ------------------------------------------------------------

  /** Set by open(): the selection the flow settles on next is announced like a click. */
  private announceNextSelection = false;

  select(selection: Selection, opts: { emit?: boolean } = {}): void {
    const prev = this.state.selection;
    if (prev && prev.pid === selection.pid && prev.cycle === selection.cycle) return;
    this.set({ selection });
    if ((opts.emit || this.announceNextSelection) && selection.cycle) {
      this.announceNextSelection = false;
      this.emit('streamcart:plan-selected', { pid: selection.pid, billingCycle: selection.cycle });
    }
  }

  open(pid?: number): void {
    const selection = pid && Number.isInteger(pid) && pid > 0 ? { pid, cycle: null } : this.state.selection;
    this.announceNextSelection = selection !== this.state.selection;
    this.set({ selection });
    this.navigate('');
  }

  setLocale(code: string): void {
    const locale = normalizeLocale(code);
    if (!locale) {
      this.emit('streamcart:error', { name: 'unknown_locale', message: `Unknown locale ${code}` });
      return;
    }
    writeBrowserLang(locale);
    this.localeFromStore = false;
    const patch: Partial<State> = { locale };
    if (this.config.routing === 'history') {
      // Same route, params and query; only the prefix changes ("en" has none).
      const prefix = isPrefix(locale) ? locale : null;
      const { route } = parseLocation(location.pathname, location.search, this.config.base);
      const path = route.name === 'notFound' ? location.pathname : formatLocation(this.config.base, prefix, route.name);
      history.replaceState(history.state, '', `${path}${location.search}${location.hash}`);
      patch.prefix = prefix;
    }
    const changed = locale !== this.state.locale;
    this.set(patch);
    if (changed) this.emit('streamcart:locale-changed', { locale });
  }

  setCurrency(code: string): void {
    const patch: Partial<State> = {};
    const currency = this.applyCurrency(code, patch);
    if (currency) chosenCurrency(this.config.store, currency);
    if (Object.keys(patch).length) this.set(patch);
  }

  /** The code when it is one (ISO 4217 shape), patching the state; null after an error event. */
  private applyCurrency(code: string, patch: Partial<State>): string | null {
    const currency = code.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) {
      queueMicrotask(() => this.emit('streamcart:error', { name: 'unknown_currency', message: `Unknown currency ${code}` }));
      return null;
    }
    this.currencyFromStore = false;
    if (currency !== this.state.currency) {
      patch.currency = currency;
      queueMicrotask(() => this.emit('streamcart:currency-changed', { currency }));
    }
    return currency;
  }

  // ---- persisted state and session ------------------------------------------------------------

  update(fn: (p: Persisted) => Persisted): void {
    const persisted = fn(this.state.persisted);
    savePersisted(persisted);
    this.set({ persisted });
  }

  signedIn(): boolean {
    return this.state.persisted.auth.loggedIn && !!this.state.persisted.token;
  }

  setSession(session: { token: string; userId: string; email: string }): void {
    this.update((p) => ({
      ...p,
      auth: { loggedIn: true, user: { userid: session.userId } },
      user: { email: session.email },
      token: session.token,
    }));
    this.emit('streamcart:session-changed', { signedIn: true, email: session.email });
  }

  async signOut(): Promise<void> {
    const hadToken = !!this.state.persisted.token;
    if (hadToken) {
      try {
        await this.client.deleteSession();
      } catch {
        // Signing out locally must work even when the API cannot be reached (spec §8: logged only).
      }
    }
    this.update(signedOut);
    this.set({ draft: { ...this.state.draft, email: '' }, attempt: { status: 'idle' } });
    this.emit('streamcart:session-changed', { signedIn: false });
    this.navigate('');
  }

  fail(err: { code?: string; name?: string; message?: string }): void {
    const fatal = { name: err.code ?? err.name ?? 'internal', message: err.message ?? '' };
    this.set({ fatal });
    this.emit('streamcart:error', fatal);
  }

  recover(): void {
    this.set({ fatal: null });
  }

  readyDetail(): StreamcartEventMap['streamcart:ready'] {
    const email = this.state.persisted.user.email;
    return {
      locale: this.state.locale,
      currency: this.state.currency,
      signedIn: this.signedIn(),
      ...(this.signedIn() && email ? { email } : {}),
    };
  }

  /** The affiliate to credit: the landing aff_id, else the remembered one (digits, as a string). */
  affiliateId(): string | null {
    if (this.landing.affiliateId) return String(this.landing.affiliateId);
    const stored = readCookie(AFFILIATE_COOKIE) ?? '';
    return /^[1-9][0-9]{0,17}$/.test(stored) ? stored : null;
  }

  /** Resolves once the landing's affiliate click is recorded (or was not needed). */
  affiliateClick: Promise<void> = Promise.resolve();

  private rememberAffiliate(): void {
    const id = this.landing.affiliateId;
    // Spec §4: acts only when aff_id is present and differs from the stored cookie. The click is
    // recorded first, then the cookie set; a failed call is not retried on every page (spec §8).
    if (!id || readCookie(AFFILIATE_COOKIE) === String(id)) return;
    const referer = typeof document !== 'undefined' ? document.referrer : '';
    this.affiliateClick = this.client
      .affiliateClick(String(id), referer)
      .catch(() => undefined)
      .then(() => writeCookie(AFFILIATE_COOKIE, String(id), { maxAge: AFFILIATE_MAX_AGE, path: '/', sameSite: 'Lax' }));
  }
}
