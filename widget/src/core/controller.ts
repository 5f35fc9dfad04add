// The façade the element, App and screens hold: it composes the framework-free pieces of core/
// (store, catalog cache, navigation, language and currency preferences, session, affiliate) and
// announces what changed with the element's events. React subscribes with useSyncExternalStore.
import { createClient, type Client } from '../api/client';
import type { CurrencyList } from '../api/schemas';
import { emit, type StreamcartEventMap, type StreamcartEventName } from './events';
import { resolveLocale } from '../i18n/locale';
import { loadMessages } from '../i18n/messages';
import { rememberAffiliate } from './affiliate';
import { CatalogCache, catalogKey } from './catalog';
import { readBrowserLang } from './cookie';
import { IdempotencyKey } from './idempotency';
import { automaticOrderDue, readLanding, type Landing } from './landing';
import * as nav from './navigation';
import { answerCurrency, browserLanguages, chosenCurrency, initialCurrency, localeFollowsStorefront } from './negotiation';
import { loadPersisted, savePersisted, signedOut, type Persisted } from './persisted';
import { Preferences } from './preferences';
import type { RouteName } from './router';
import { signedIn } from './session';
import { initialDraft, plansFirst, type Attempt, type Config, type Draft, type Selection, type State } from './state';
import { Store } from './store';

export class Controller {
  readonly host: HTMLElement;
  readonly landing: Landing;
  config: Config;
  client: Client;
  #store: Store<State>;
  #catalog: CatalogCache;
  /** One Idempotency-Key per order attempt (core/order.ts). */
  readonly idempotency = new IdempotencyKey();
  #emitted = new Set<string>();
  #preferences: Preferences;
  /** Set by open(): the selection the flow settles on next is announced like a click. */
  #announceNextSelection = false;

  /**
   * The landing asks for the automatic order (spec §4): the widget starts on the creating-order view,
   * never showing the plans first, and the order starts once the flow is up (checkout/landing.ts).
   */
  readonly autoOrderDue: boolean;

  /** Resolves once the landing's affiliate click is recorded (or was not needed). */
  affiliateClick: Promise<void>;

  constructor(host: HTMLElement, config: Config) {
    this.host = host;
    this.config = config;
    this.landing = readLanding(location.search);
    const initial = nav.readRoute(config.routing, config.base);
    this.autoOrderDue = automaticOrderDue(this.landing, initial.route);
    const { route, prefix } = this.autoOrderDue ? { ...initial, route: { name: 'creatingOrder' as const, query: {} } } : initial;
    const cookie = readBrowserLang();
    const chosen = config.currency ? null : chosenCurrency(config.store);
    const persisted = loadPersisted();
    const plan = config.plan ?? this.landing.pid;
    this.#store = new Store<State>({
      locale: resolveLocale({ attribute: config.locale, cookie, prefix, languages: browserLanguages() }),
      currency: initialCurrency(config.currency, chosen, plansFirst(route)),
      route,
      prefix,
      selection: plan ? { pid: plan, cycle: null } : null,
      draft: initialDraft(this.landing, config.promocode, persisted),
      attempt: this.autoOrderDue ? { status: 'creating' } : { status: 'idle' },
      persisted,
      fatal: null,
      storefront: null,
    });
    this.#preferences = new Preferences(
      {
        state: this.getState,
        set: (patch) => this.#set(patch),
        emit: (name, detail) => this.emit(name, detail),
        config: () => this.config,
        // The cache serves those products under the currency's key too, without a new request.
        pricedIn: (code) => {
          const { locale } = this.getState();
          this.#catalog.alias(catalogKey.products('plan', '', locale), catalogKey.products('plan', code, locale));
        },
      },
      { locale: localeFollowsStorefront(config.locale, cookie, prefix), currency: !config.currency && !chosen },
    );
    this.#catalog = this.#newCatalog();
    this.client = this.#makeClient();
    this.affiliateClick = rememberAffiliate(this.landing, (id, referer) => this.client.affiliateClick(id, referer));
    // Start fetching the table now; the first paint waits for it.
    void loadMessages(this.getState().locale);
  }

  // ---- store ---------------------------------------------------------------------------------

  subscribe = (fn: () => void): (() => void) => this.#store.subscribe(fn);

  getState = (): State => this.#store.getState();

  #set(patch: Partial<State>): void {
    this.#store.set(patch);
  }

  setDraft(patch: Partial<Draft>): void {
    this.#set({ draft: { ...this.getState().draft, ...patch } });
  }

  setAttempt(attempt: Attempt): void {
    this.#set({ attempt });
  }

  emit<K extends StreamcartEventName>(name: K, detail: StreamcartEventMap[K]): void {
    emit(this.host, name, detail);
  }

  /** Emits an event once per key (an order is paid once, however often the page polls). */
  emitOnce<K extends StreamcartEventName>(key: string, name: K, detail: StreamcartEventMap[K]): void {
    if (this.#emitted.has(key)) return;
    this.#emitted.add(key);
    this.emit(name, detail);
  }

  fail(err: { code?: string; name?: string; message?: string }): void {
    const fatal = { name: err.code ?? err.name ?? 'internal', message: err.message ?? '' };
    this.#set({ fatal });
    this.emit('streamcart:error', fatal);
  }

  recover(): void {
    this.#set({ fatal: null });
  }

  readyDetail(): StreamcartEventMap['streamcart:ready'] {
    const email = this.getState().persisted.user.email;
    return {
      locale: this.getState().locale,
      currency: this.getState().currency,
      signedIn: this.signedIn(),
      ...(this.signedIn() && email ? { email } : {}),
    };
  }

  // ---- catalog ---------------------------------------------------------------------------------

  /** Memoised GET for data that does not change while the page is open; failures are retried. */
  cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.#catalog.get(key, load);
  }

  /** The answer cached under `key` when it has already arrived. */
  peek(key: string): { value: unknown } | undefined {
    return this.#catalog.peek(key);
  }

  #newCatalog(): CatalogCache {
    return new CatalogCache((key, answer) => {
      // The host page's currency picker offers the list the widget read (one request for both).
      if (key === catalogKey.currencies)
        answer.then(
          (list) => this.emit('streamcart:currencies-loaded', list as CurrencyList),
          () => undefined,
        );
    });
  }

  /**
   * Starts catalog reads early, under the keys the plan page reads them with. 'plans' (when the
   * element connects, so the network overlaps React's start-up): the products the plan cards show.
   * 'checkout' (once they are painted): the gateways and currencies of the form below them.
   */
  prefetch(what: 'plans' | 'checkout'): void {
    const { route, locale, currency } = this.getState();
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
          (list) => this.#preferences.fill(answerCurrency(list)),
          () => undefined,
        );
    } else {
      void this.cached(catalogKey.gateways(locale), () => this.client.gateways(locale));
      void this.cached(catalogKey.currencies, () => this.client.currencies());
    }
  }

  /**
   * GET /storefront (from the element's connection, under the key the success and waiting views
   * read it with): its theme and logo are shown as soon as it arrives, and its default language and
   * currency apply where neither the page nor the buyer chose one.
   */
  loadStorefront(): void {
    const { locale } = this.getState();
    const catalog = this.#catalog;
    catalog
      .get(catalogKey.storefront(locale), () => this.client.storefront(locale))
      .then(
        (storefront) => {
          // The page named another storefront (store or api attribute) meanwhile.
          if (this.#catalog !== catalog) return;
          this.emit('streamcart:storefront-loaded', { supportUrl: storefront.supportUrl, dashboardUrl: storefront.dashboardUrl });
          this.#set({ storefront, ...this.#preferences.storefrontLocale(storefront) });
          this.#preferences.storefrontCurrency(storefront);
        },
        // An older server or a network failure: the widget's own defaults stay.
        () => this.#preferences.fill('EUR'),
      );
  }

  /** Calls `fn` once the state has a currency (see initialCurrency in core/negotiation.ts). */
  whenCurrency(fn: () => void): void {
    this.#store.when((s) => !!s.currency, fn);
  }

  #makeClient(): Client {
    return createClient({
      base: this.config.api,
      store: this.config.store,
      token: () => this.getState().persisted.token || null,
      language: () => this.getState().locale,
    });
  }

  // ---- configuration (attributes) -------------------------------------------------------------

  configure(next: Config): void {
    const prev = this.config;
    this.config = next;
    const patch: Partial<State> = {};
    if (prev.api !== next.api || prev.store !== next.store) {
      this.client = this.#makeClient();
      this.#catalog = this.#newCatalog();
      // Another storefront: its own theme and logo (the language and currency stay as they are).
      patch.storefront = null;
      queueMicrotask(() => this.loadStorefront());
    }
    if (next.locale !== prev.locale) this.#preferences.pageLocale(next.locale, patch);
    if (next.currency !== prev.currency && next.currency) this.#preferences.apply(next.currency, patch);
    if (next.plan !== prev.plan && next.plan) patch.selection = { pid: next.plan, cycle: null };
    if (next.promocode !== prev.promocode && next.promocode) {
      patch.draft = { ...this.getState().draft, promoInput: next.promocode.toUpperCase(), promo: null };
    }
    if (next.routing !== prev.routing || next.base !== prev.base) Object.assign(patch, nav.readRoute(next.routing, next.base));
    if (Object.keys(patch).length) this.#set(patch);
  }

  // ---- navigation -----------------------------------------------------------------------------

  /** Where the widget is: what every address it hands out depends on (core/returns.ts). */
  place(): nav.Place {
    return { routing: this.config.routing, base: this.config.base, prefix: this.getState().prefix };
  }

  /** popstate: the browser's back/forward buttons in history mode. */
  syncFromLocation = (): void => {
    if (this.config.routing !== 'history') return;
    this.#set(nav.readRoute(this.config.routing, this.config.base));
  };

  navigate(name: RouteName, query: Record<string, string> = {}, opts: { replace?: boolean } = {}): void {
    nav.showRoute(this.place(), this.host, name, query, opts.replace);
    this.#set({ route: { name, query }, fatal: null });
  }

  servicesHref(): string {
    return nav.servicesHref(this.place());
  }

  homeHref(): string {
    return nav.homeHref(this.place());
  }

  /** Drops a used sign-in token from the address bar (it works once; a reload must not reuse it). */
  forgetSigninParam(): void {
    const { route } = this.getState();
    if (!route.query.signin) return;
    const { signin: _used, ...rest } = route.query;
    // A link to the index lands on the services view; keep it there.
    const query = route.name === '' ? { ...rest, view: 'services' } : rest;
    if (this.config.routing === 'history') {
      this.navigate(route.name, query, { replace: true });
      return;
    }
    nav.dropSigninParam();
    this.#set({ route: { name: route.name, query } });
  }

  // ---- selection, locale, currency ------------------------------------------------------------

  select(selection: Selection, opts: { emit?: boolean } = {}): void {
    const prev = this.getState().selection;
    if (prev && prev.pid === selection.pid && prev.cycle === selection.cycle) return;
    this.#set({ selection });
    if ((opts.emit || this.#announceNextSelection) && selection.cycle) {
      this.#announceNextSelection = false;
      this.emit('streamcart:plan-selected', { pid: selection.pid, billingCycle: selection.cycle });
    }
  }

  open(pid?: number): void {
    const current = this.getState().selection;
    const selection = pid && Number.isInteger(pid) && pid > 0 ? { pid, cycle: null } : current;
    this.#announceNextSelection = selection !== current;
    this.#set({ selection });
    this.navigate('');
  }

  setLocale(code: string): void {
    this.#preferences.setLocale(code);
  }

  setCurrency(code: string): void {
    this.#preferences.setCurrency(code);
  }

  // ---- persisted state, session, order attempt, affiliate --------------------------------------

  update(fn: (p: Persisted) => Persisted): void {
    const persisted = fn(this.getState().persisted);
    savePersisted(persisted);
    this.#set({ persisted });
  }

  signedIn(): boolean {
    return signedIn(this.getState().persisted);
  }

  async signOut(): Promise<void> {
    if (this.getState().persisted.token) {
      try {
        await this.client.deleteSession();
      } catch {
        // Signing out locally must work even when the API cannot be reached (spec §8: logged only).
      }
    }
    this.update(signedOut);
    this.#set({ draft: { ...this.getState().draft, email: '' }, attempt: { status: 'idle' } });
    this.emit('streamcart:session-changed', { signedIn: false });
    this.navigate('');
  }
}
