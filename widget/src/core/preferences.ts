// Which language and currency the widget shows as they get decided over time: the page's
// attributes and the buyer's choices win; until one of them speaks, the storefront's defaults
// replace the widget's first guess (core/negotiation.ts holds the rules, this the state of who has
// spoken). The controller forwards the element's calls here; this patches the state and announces
// each change with the element's events.
import type { Storefront } from '../api/schemas';
import type { StreamcartEventMap, StreamcartEventName } from './events';
import { normalizeLocale } from '../i18n/locale';
import { loadMessages } from '../i18n/messages';
import { writeBrowserLang } from './cookie';
import { replacePrefix } from './navigation';
import { chosenCurrency, isCurrencyCode, storefrontLocale } from './negotiation';
import { isPrefix } from './router';
import type { Config, State } from './state';

/** What the preferences act on: the controller's state, events and attributes. */
export interface Stage {
  state(): State;
  set(patch: Partial<State>): void;
  emit<K extends StreamcartEventName>(name: K, detail: StreamcartEventMap[K]): void;
  config(): Config;
  /** The plan page's products asked for without a currency are the ones priced in `code`. */
  pricedIn(code: string): void;
}

export class Preferences {
  #stage: Stage;
  /** True while the storefront's default language may still replace the current one. */
  #localeFollows: boolean;
  /** True while the storefront's default currency may still replace the current one. */
  #currencyFollows: boolean;

  constructor(stage: Stage, follows: { locale: boolean; currency: boolean }) {
    this.#stage = stage;
    this.#localeFollows = follows.locale;
    this.#currencyFollows = follows.currency;
  }

  /** The storefront's default language, as a patch, where nobody chose one (its table starts loading). */
  storefrontLocale(storefront: Storefront): Partial<State> {
    const wanted = this.#localeFollows ? storefrontLocale(this.#stage.state().locale, storefront.defaultLocale) : null;
    this.#localeFollows = false;
    if (!wanted) return {};
    void loadMessages(wanted);
    queueMicrotask(() => this.#stage.emit('streamcart:locale-changed', { locale: wanted }));
    return { locale: wanted };
  }

  /** The storefront's default currency, where nobody chose one. */
  storefrontCurrency(storefront: Storefront): void {
    const code = storefront.defaultCurrency.trim().toUpperCase();
    if (!this.#stage.state().currency) this.fill(code);
    else if (this.#currencyFollows && isCurrencyCode(code)) this.#stage.set({ currency: code });
    this.#currencyFollows = false;
  }

  /**
   * Settles the plan page's currency ('' until then) with the one its prices came in, or EUR when
   * the storefront could not be read.
   */
  fill(code: string): void {
    if (this.#stage.state().currency || !isCurrencyCode(code)) return;
    this.#stage.pricedIn(code);
    this.#currencyFollows = false;
    this.#stage.set({ currency: code });
  }

  /** The page's locale attribute changed (to `code`, maybe none): it wins from now on. */
  pageLocale(code: string | null, patch: Partial<State>): void {
    this.#localeFollows = false;
    const locale = normalizeLocale(code);
    if (locale && locale !== this.#stage.state().locale) {
      patch.locale = locale;
      queueMicrotask(() => this.#stage.emit('streamcart:locale-changed', { locale }));
    }
  }

  /** The buyer (or the host page's picker) chose a language: remembered, and in the URL's prefix. */
  setLocale(code: string): void {
    const locale = normalizeLocale(code);
    if (!locale) {
      this.#stage.emit('streamcart:error', { name: 'unknown_locale', message: `Unknown locale ${code}` });
      return;
    }
    writeBrowserLang(locale);
    this.#localeFollows = false;
    const patch: Partial<State> = { locale };
    const { routing, base } = this.#stage.config();
    if (routing === 'history') {
      const prefix = isPrefix(locale) ? locale : null;
      replacePrefix(base, prefix);
      patch.prefix = prefix;
    }
    const changed = locale !== this.#stage.state().locale;
    this.#stage.set(patch);
    if (changed) this.#stage.emit('streamcart:locale-changed', { locale });
  }

  /** The buyer chose a currency: remembered for this storefront in this tab. */
  setCurrency(code: string): void {
    const patch: Partial<State> = {};
    const currency = this.apply(code, patch);
    if (currency) chosenCurrency(this.#stage.config().store, currency);
    if (Object.keys(patch).length) this.#stage.set(patch);
  }

  /** The code when it is one (ISO 4217 shape), patching the state; null after an error event. */
  apply(code: string, patch: Partial<State>): string | null {
    const currency = code.trim().toUpperCase();
    if (!isCurrencyCode(currency)) {
      queueMicrotask(() => this.#stage.emit('streamcart:error', { name: 'unknown_currency', message: `Unknown currency ${code}` }));
      return null;
    }
    this.#currencyFollows = false;
    if (currency !== this.#stage.state().currency) {
      patch.currency = currency;
      queueMicrotask(() => this.#stage.emit('streamcart:currency-changed', { currency }));
    }
    return currency;
  }
}
