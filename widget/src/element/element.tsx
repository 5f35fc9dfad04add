// <streamcart-checkout>: attributes → props, methods, CustomEvents; React inside an open shadow root.
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import root from 'react-shadow';
import { App } from '../App';
import { normalizeLocale } from '../i18n/locale';
import { writeBrowserLang } from '../core/cookie';
import { Controller } from '../core/controller';
import { loadPersisted, savePersisted, signedOut } from '../core/persisted';
import { ATTRIBUTES, readConfig, type AttributeName } from './attributes';
import { constructedSheet, SheetContext, sharedSheet, themeCss, widgetCss } from './styles';

export const TAG = 'streamcart-checkout';

const ShadowDiv = root.div!;

function Shell({ host, controller }: { host: HTMLElement; controller: Controller }) {
  const sheet = sharedSheet();
  // The storefront's theme: fallbacks of the --sc-* properties, in a sheet of this element's own
  // (two widgets may name two storefronts), after the shared one so its :host rule wins.
  const theme = useSyncExternalStore(controller.subscribe, () => themeCss(controller.getState().storefront?.theme));
  const themeSheet = useMemo(() => (sheet ? new CSSStyleSheet() : null), [sheet]);
  useEffect(() => themeSheet?.replaceSync(theme), [themeSheet, theme]);
  // The sheets of the screens shown so far (each chunk brings its own), after the shared one.
  const [more, setMore] = useState<string[]>([]);
  const addSheet = useCallback((css: string) => setMore((list) => (list.includes(css) ? list : [...list, css])), []);
  const sheets = useMemo(() => (sheet && themeSheet ? [sheet, themeSheet, ...more.map(constructedSheet)] : []), [sheet, themeSheet, more]);
  // react-shadow attaches the shadow root to the element it renders. Redirecting that one call to
  // the custom element makes <streamcart-checkout> itself the open shadow host (el.shadowRoot),
  // while react-shadow still portals the tree and adopts the style sheets there. The React root
  // lives in a detached fragment, so the element has no light-DOM children at all, and the shadow
  // root survives an unmount to serve a later reconnect.
  const redirect = useCallback(
    (node: HTMLElement | null) => {
      if (node) node.attachShadow = (init: ShadowRootInit) => host.shadowRoot ?? HTMLElement.prototype.attachShadow.call(host, init);
    },
    [host],
  );
  return (
    <ShadowDiv ref={redirect} mode="open" styleSheets={sheets}>
      {/* Where constructable sheets are missing, the CSS is <style> elements in the tree. */}
      {!sheet && <style>{widgetCss()}</style>}
      {!sheet && theme && <style>{theme}</style>}
      {!sheet && more.map((css, i) => <style key={i}>{css}</style>)}
      <SheetContext.Provider value={addSheet}>
        <App controller={controller} />
      </SheetContext.Provider>
    </ShadowDiv>
  );
}

/**
 * The Streamcart checkout: plans, order, payment and after-sale, in an open shadow root.
 * (These tags feed custom-elements.json, `npm run analyze -w widget`; the contract is docs/embed.md.)
 *
 * @tag streamcart-checkout
 * @attr {string} api - API base, absolute or relative to the page (default /checkout/api)
 * @attr {string} store - publishable storefront key pk_..., sent as the Streamcart-Store header
 * @attr {string} locale - en, en-us, en-gb, de-de, es-es, nl-nl or pt-pt (default: resolved)
 * @attr {string} currency - ISO code of the prices (default: the storefront's)
 * @attr {string} plan - pid selected on the plan grid
 * @attr {string} promocode - code applied once a plan is selected
 * @attr {'memory' | 'history'} routing - history lets the widget own the URL (default memory)
 * @attr {string} base - history routing's base path, e.g. /checkout/ (default /)
 * @fires streamcart:ready - {locale, currency, signedIn, email?}, once the plans are shown
 * @fires streamcart:plan-selected - {pid, billingCycle}
 * @fires streamcart:order-created - {orderId, invoiceId, status, total}
 * @fires streamcart:payment-started - {orderId, gateway, paymentUrl}
 * @fires streamcart:order-paid - {orderId}
 * @fires streamcart:service-ready - {orderId, serviceIds}
 * @fires streamcart:renewal-paid - {invoiceId, orderId, serviceId}
 * @fires streamcart:session-changed - {signedIn, email?}
 * @fires streamcart:locale-changed - {locale}
 * @fires streamcart:currency-changed - {currency}
 * @fires streamcart:error - {name, message}
 * @fires streamcart:storefront-loaded - {supportUrl, dashboardUrl}
 * @fires streamcart:currencies-loaded - {currencies, default}
 * @cssprop --sc-primary - buttons, selection, links (default #405db1)
 * @cssprop --sc-bg - background (default #ffffff)
 * @cssprop --sc-text - text colour (default #1c2333)
 * @cssprop --sc-radius - corner radius (default 16px)
 * @cssprop --sc-font - font family
 * @csspart plan-card - each plan card
 * @csspart plan-card-selected - the selected plan card (it also has plan-card)
 * @csspart summary - the order summary (checkout and waiting page)
 * @csspart pay-button - the pay / start-trial button (also on the waiting page)
 * @csspart credentials - the service credentials block on the success page
 */
export class StreamcartCheckoutElement extends HTMLElement {
  static get observedAttributes(): readonly string[] {
    return ATTRIBUTES;
  }

  // True private fields: a host framework that sets unknown props as properties cannot reach them.
  #controller: Controller | null = null;
  #root: Root | null = null;
  /** Set while an unmount is scheduled; a reconnect in the same task (a DOM move) cancels it. */
  #leaving = false;

  connectedCallback(): void {
    // Moved within the page (disconnected and connected again at once): keep the running widget.
    this.#leaving = false;
    if (this.#root) return;
    const controller = new Controller(this, readConfig(this));
    this.#controller = controller;
    // The plans' catalog request and the storefront's settings start now, while React starts up,
    // not after its first render.
    controller.prefetch('plans');
    controller.loadStorefront();
    this.#root = createRoot(document.createDocumentFragment());
    this.#root.render(<Shell host={this} controller={controller} />);
  }

  disconnectedCallback(): void {
    this.#leaving = true;
    queueMicrotask(() => {
      if (!this.#leaving) return;
      this.#leaving = false;
      // Stops polls and timers with the tree; the shadow root stays for a later reconnect.
      this.#root?.unmount();
      this.#root = null;
      this.#controller = null;
    });
  }

  attributeChangedCallback(_name: string, old: string | null, value: string | null): void {
    if (old !== value) this.#controller?.configure(readConfig(this));
  }

  /** Goes to the plan choice, with plan `pid` selected when given. */
  open(pid?: number): void {
    if (this.#controller) this.#controller.open(pid);
    else if (pid) this.setAttribute('plan', String(pid));
  }

  /** Ends the session (DELETE /session) and clears what spec §4 lists, then shows the plans. */
  async signOut(): Promise<void> {
    if (this.#controller) return this.#controller.signOut();
    savePersisted(signedOut(loadPersisted()));
  }

  /** Switches the language (and in history routing the URL prefix); remembered for 365 days. */
  setLocale(code: string): void {
    if (this.#controller) this.#controller.setLocale(code);
    else {
      const locale = normalizeLocale(code);
      if (locale) writeBrowserLang(locale);
    }
  }

  setCurrency(code: string): void {
    if (this.#controller) this.#controller.setCurrency(code);
    else this.setAttribute('currency', code);
  }
}

// Attribute-reflecting properties, so frameworks that set properties instead of attributes work.
for (const name of ATTRIBUTES) {
  Object.defineProperty(StreamcartCheckoutElement.prototype, name, {
    configurable: true,
    enumerable: true,
    get(this: HTMLElement) {
      return this.getAttribute(name);
    },
    set(this: HTMLElement, value: string | number | boolean | null | undefined) {
      if (value === null || value === undefined || value === false) this.removeAttribute(name);
      else this.setAttribute(name, String(value));
    },
  });
}

export interface StreamcartCheckoutElement extends Record<AttributeName, string | null> {}

export function define(tag = TAG): void {
  if (typeof customElements === 'undefined' || customElements.get(tag)) return;
  customElements.define(tag, tag === TAG ? StreamcartCheckoutElement : class extends StreamcartCheckoutElement {});
}
