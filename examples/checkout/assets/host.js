// The /checkout/ reference host. It drives <streamcart-checkout> only through
// the embed contract: attributes, the methods open/signOut/setLocale/
// setCurrency and the streamcart:* events. Configuration arrives in
// <meta name="streamcart:*"> tags rendered by the Go server (no inline script).
import i18n from './i18n.json' with { type: 'json' };
import {
  RELOAD_KEY,
  MOBILE_QUERY,
  REDUCED_MOTION_QUERY,
  shouldReload,
  isChunkLoadError,
  canPrefetch,
  particleCount,
  normalizeLocale,
  localeHref,
  currencyLabel,
  currencySymbol,
  shownLocale,
  parseCurrencies,
  safeHttpURL,
  offShop,
} from './policy.js';
import { renderRows } from './posters.js';

const PREFIXES = ['de-de', 'en-gb', 'en-us', 'es-es', 'nl-nl', 'pt-pt'];
const LANG_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

// 1. One reload on a failed chunk load, never twice within 60 s. Installed
//    first so a widget failure is caught whatever happens below.
function reloadOnce(why) {
  try {
    if (!shouldReload(Date.now(), sessionStorage.getItem(RELOAD_KEY))) return false;
    sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
  } catch {
    return false; // without storage we could loop: better no reload at all
  }
  console.warn('streamcart host: reloading after a failed module load', why);
  location.reload();
  return true;
}
window.addEventListener('vite:preloadError', (e) => {
  if (reloadOnce(e.payload)) e.preventDefault();
});
window.addEventListener('unhandledrejection', (e) => {
  if (isChunkLoadError(e.reason)) reloadOnce(e.reason);
});
window.addEventListener(
  'error',
  (e) => {
    const t = e.target;
    if (t instanceof HTMLScriptElement && t.type === 'module') reloadOnce(t.src);
    else if (isChunkLoadError(e.error ?? e.message)) reloadOnce(e.message);
  },
  true,
);

const meta = (name) => document.querySelector(`meta[name="streamcart:${name}"]`)?.getAttribute('content') ?? '';
const config = {
  base: meta('base') || '/checkout/',
  api: (meta('api') || '/checkout/api').replace(/\/$/, ''),
  dashboard: meta('dashboard'),
  support: meta('support'),
  version: meta('version'),
};
const state = { locale: normalizeLocale(meta('locale') || i18n.default), currency: '', currencies: null };

const widget = () => {
  const el = document.querySelector('streamcart-checkout');
  return el && customElements.get('streamcart-checkout') && el instanceof customElements.get('streamcart-checkout') ? el : null;
};
const call = (method, ...args) => {
  const el = widget();
  if (!el || typeof el[method] !== 'function') return false;
  const result = el[method](...args);
  // signOut is async; its failure is the widget's to report, the host only logs it.
  if (result && typeof result.catch === 'function') result.catch((err) => console.error(`streamcart host: ${method} failed`, err));
  return true;
};
const messages = (code) => i18n.messages[code] ?? i18n.messages[i18n.default];
const t = (key) => messages(state.locale)[key] ?? i18n.messages[i18n.default][key] ?? key;
const flagURL = (flag) => `${config.base}assets/flags/${flag}.svg${config.version ? `?v=${config.version}` : ''}`;

// 2. The host's own strings follow the locale the widget reports.
function applyLocale(code) {
  const norm = normalizeLocale(code);
  if (!norm) return;
  state.locale = norm;
  const info = i18n.locales.find((l) => l.code === norm);
  const m = messages(info ? norm : i18n.default);
  document.querySelectorAll('[data-i18n]').forEach((node) => {
    // The copyright line's year and owner come from the server (the shop's clock, the seller).
    const s = m[node.dataset.i18n]?.replace('{year}', node.dataset.year ?? '').replace('{name}', node.dataset.name ?? '');
    if (s && node.textContent !== s) node.textContent = s;
  });
  document
    .querySelectorAll('[data-i18n-aria-label]')
    .forEach((node) => node.setAttribute('aria-label', m[node.dataset.i18nAriaLabel] ?? ''));
  document.querySelectorAll('[data-i18n-title]').forEach((node) => node.setAttribute('title', m[node.dataset.i18nTitle] ?? ''));
  document.documentElement.lang = info?.iso ?? norm;
  document.documentElement.dataset.locale = norm;
  renderSwitcherCurrent(info, norm);
}

// 3. Language switcher (spec §2): a <details> so it works before the script,
//    closed by Escape or a click outside; choosing keeps route and query.
const switcher = document.querySelector('[data-testid="language-switcher"]');

function renderSwitcherCurrent(info, code) {
  if (!switcher) return;
  const flag = switcher.querySelector('[data-lang-flag]');
  const name = switcher.querySelector('[data-lang-name]');
  // The button shows the menu's entry for the locale (en-us: the menu's English); an unknown
  // locale shows a globe and its raw code.
  const shown = info ? (shownLocale(i18n.locales, info.code) ?? info) : null;
  flag?.setAttribute('src', flagURL(shown ? shown.flag : 'globe'));
  if (name) {
    name.textContent = shown ? shown.name : code;
    name.setAttribute('lang', shown ? shown.iso : code);
  }
  switcher.dataset.locale = code;
  switcher.querySelectorAll('[data-testid="language-option"]').forEach((a) => {
    a.setAttribute('aria-checked', String(a.dataset.locale === (shown ? shown.code : code)));
  });
}

function refreshOptionLinks() {
  switcher?.querySelectorAll('[data-testid="language-option"]').forEach((a) => {
    a.setAttribute('href', localeHref(location, config.base, PREFIXES, a.dataset.locale));
  });
}

function closeSwitcher(focus) {
  if (!switcher?.open) return;
  switcher.open = false;
  if (focus) switcher.querySelector('summary')?.focus();
}

function writeLangCookie(code) {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `browserLang=${encodeURIComponent(code)}; Max-Age=${LANG_COOKIE_MAX_AGE}; Path=/; SameSite=Lax${secure}`;
}

if (switcher) {
  switcher.addEventListener('toggle', () => {
    if (!switcher.open) return;
    refreshOptionLinks();
    (switcher.querySelector('[aria-checked="true"]') ?? switcher.querySelector('[data-testid="language-option"]'))?.focus({
      preventScroll: true,
    });
  });
  document.addEventListener('pointerdown', (e) => {
    if (switcher.open && !e.composedPath().includes(switcher)) closeSwitcher(false);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && switcher.open) {
      e.preventDefault();
      closeSwitcher(true);
    }
  });
  switcher.addEventListener('keydown', (e) => {
    if (!switcher.open || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp')) return;
    const items = [...switcher.querySelectorAll('[data-testid="language-option"]')];
    const i = items.indexOf(document.activeElement);
    const next = items[(i + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length];
    e.preventDefault();
    next?.focus();
  });
  switcher.addEventListener('click', (e) => {
    const a = e.target.closest('[data-testid="language-option"]');
    if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const code = a.dataset.locale;
    // The chosen option is hidden with the menu: focus returns to the button that opened it.
    closeSwitcher(switcher.contains(document.activeElement));
    let handled = false;
    try {
      handled = call('setLocale', code);
    } catch (err) {
      // Spec §8: a failed language change is logged and the dropdown closes.
      console.error('streamcart host: setLocale failed', err);
      e.preventDefault();
      return;
    }
    if (handled) {
      e.preventDefault();
      applyLocale(code);
    } else {
      // No widget on this page (error pages): remember the choice the way
      // the widget does, then follow the link to the same path.
      writeLangCookie(code);
      a.setAttribute('href', localeHref(location, config.base, PREFIXES, code));
    }
  });
}

// 4. Currency (GET /currencies → <select>, change → setCurrency). The widget reads /currencies and
//    /storefront itself and announces the answers (streamcart:currencies-loaded,
//    streamcart:storefront-loaded): where it runs, the host takes them from there, so each resource
//    is fetched once per page. Pages without the widget (error pages) ask the API themselves.
const currencySelect = document.querySelector('[data-testid="currency-select"]');
const hasWidget = !!document.querySelector('streamcart-checkout');

function showCurrency(code) {
  if (!code) return;
  state.currency = code;
  if (!currencySelect) return;
  if (![...currencySelect.options].some((o) => o.value === code)) currencySelect.add(new Option(code, code));
  currencySelect.value = code;
  // The button's sign is the chosen currency's (£ for GBP), not a fixed €.
  const sign = document.querySelector('[data-currency-symbol]');
  if (sign) sign.textContent = currencySymbol(code, state.currencies ?? [], state.locale);
}

async function loadCurrencies() {
  if (!currencySelect) return;
  try {
    const res = await fetch(`${config.api}/currencies`, { headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    showCurrencies(await res.json());
  } catch (err) {
    console.error(`streamcart host: ${i18n.messages[i18n.default].currencyError}`, err);
    currencySelect.dataset.error = 'true';
    currencySelect.setAttribute('title', t('currencyError'));
  }
}

function showCurrencies(data) {
  if (!currencySelect) return;
  const { currencies, default: def } = parseCurrencies(data);
  state.currencies = currencies;
  const selected = state.currency || def;
  currencySelect.replaceChildren(...currencies.map((c) => new Option(currencyLabel(c), c.code, false, c.code === selected)));
  showCurrency(selected);
  delete currencySelect.dataset.error;
}

currencySelect?.addEventListener('change', () => {
  state.currency = currencySelect.value;
  call('setCurrency', currencySelect.value);
});

// 5. Session: sign-out only for signed-in visitors, "Already have an account? Login" only for the
//    others: never both.
const signOutButton = document.querySelector('[data-testid="signout-button"]');
const accountLogin = document.querySelector('.account');
function showSession(detail) {
  const signedIn = !!detail?.signedIn;
  if (accountLogin) accountLogin.hidden = signedIn;
  // The focused sign-out button is about to disappear: keyboard focus goes to the page's content
  // (the skip link's target) instead of falling back to the top of the document.
  if (!signedIn && signOutButton && document.activeElement === signOutButton) {
    document.getElementById('main')?.focus({ preventScroll: true });
  }
  if (signOutButton) signOutButton.hidden = !signedIn;
  document.documentElement.dataset.signedIn = String(signedIn);
}
// A page without the widget (a legal page, the 404) reads the session from the widget's cookie
// (spec §3's `checkout`: auth.loggedIn and the token), so a buyer who is signed in sees Sign out
// there too, not Login; Sign out then ends the session as the widget does (DELETE /session, the
// cookie cleared).
function storedSession() {
  const raw = document.cookie
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith('checkout='));
  try {
    const c = raw ? JSON.parse(decodeURIComponent(raw.slice('checkout='.length))) : null;
    return c?.auth?.loggedIn && c.token ? c.token : '';
  } catch {
    return '';
  }
}
async function signOutHere() {
  const token = storedSession();
  if (token) {
    // Best effort, as the widget's: signing out here must work when the API cannot be reached.
    await fetch(`${config.api}/session`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
  }
  document.cookie = `checkout=; Max-Age=0; Path=/; SameSite=Lax`;
  showSession({ signedIn: false });
}
signOutButton?.addEventListener('click', () => {
  if (!call('signOut')) void signOutHere();
});
if (!document.querySelector('streamcart-checkout')) showSession({ signedIn: !!storedSession() });

// 6. Widget events (bubbling, composed).
document.addEventListener('streamcart:ready', (e) => {
  const d = e.detail ?? {};
  if (d.locale) applyLocale(d.locale);
  if (d.currency) showCurrency(d.currency);
  showSession(d);
});
document.addEventListener('streamcart:session-changed', (e) => showSession(e.detail));
document.addEventListener('streamcart:locale-changed', (e) => e.detail?.locale && applyLocale(e.detail.locale));
document.addEventListener('streamcart:currency-changed', (e) => e.detail?.currency && showCurrency(e.detail.currency));

// The logo and "Home" go to the index through the widget, keeping its state.
document.addEventListener('click', (e) => {
  const a = e.target.closest?.('a[data-home-link]');
  if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  if (call('open')) e.preventDefault();
});

// 7. Link prefetch on intent, never on 2g or with data saver (spec §9).
const prefetched = new Set();
function prefetch(a) {
  const href = safeHttpURL(a.href);
  if (!href || prefetched.has(href) || !canPrefetch(navigator.connection)) return;
  const url = new URL(href);
  if (url.origin === location.origin && url.pathname === location.pathname) return;
  prefetched.add(href);
  const link = document.createElement('link');
  link.rel = 'prefetch';
  link.href = href;
  document.head.append(link);
}
for (const type of ['pointerenter', 'focusin']) {
  document.addEventListener(
    type,
    (e) => {
      const a = e.target.closest?.('a[data-prefetch]');
      if (a) prefetch(a);
    },
    true,
  );
}

// 8. Storefront links from the catalog (support, dashboard), when set.
async function loadStorefront() {
  try {
    const res = await fetch(`${config.api}/storefront`, { headers: { Accept: 'application/json' } });
    if (!res.ok) return;
    showStorefront(await res.json());
  } catch (err) {
    console.error('streamcart host: storefront', err);
  }
}

function showStorefront(data) {
  const support = safeHttpURL(data?.supportUrl);
  if (support) {
    // Links the server took from the catalog (its legal pages, the seller's site) stay as they are.
    document.querySelectorAll('a[data-support-link]:not([data-legal-link])').forEach((a) => {
      const frag = a.dataset.supportLink;
      a.href = frag ? `${support.split('#')[0]}#${frag}` : support;
    });
  }
  // The storefront's own dashboard, when it leads out of the shop and the page's setting does not.
  const dashboard = safeHttpURL(data?.dashboardUrl);
  if (dashboard && offShop(dashboard, location.href, config.base) && !offShop(config.dashboard, location.href, config.base))
    document.querySelectorAll('a[data-dashboard-link]').forEach((a) => {
      a.href = dashboard;
    });
}

// 9. Scroll: top on a new page, the saved position on back/forward (spec §2).
if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
const positions = new Map();
if (window.navigation) {
  navigation.addEventListener('navigate', (e) => {
    if (!e.destination.sameDocument || e.hashChange || e.downloadRequest) return;
    const from = navigation.currentEntry?.key;
    if (from) positions.set(from, window.scrollY);
    const type = e.navigationType;
    if (type === 'replace' || type === 'reload') return;
    const to = e.destination.key;
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        window.scrollTo({ top: type === 'traverse' ? (positions.get(to) ?? 0) : 0, behavior: 'instant' });
      }),
    );
  });
} else {
  window.addEventListener('popstate', () => window.scrollTo({ top: 0, behavior: 'instant' }));
}

// The page marks its route so the marketing hero shows on landing pages only. "My services" lives
// on the index route (?view=services, or a sign-in link's ?signin=): it is marked "services", as
// the server marks it on a first load.
function markRoute() {
  let rest = location.pathname.startsWith(config.base) ? location.pathname.slice(config.base.length) : '';
  const prefix = PREFIXES.find((p) => rest === p || rest.startsWith(p + '/'));
  if (prefix) rest = rest.slice(prefix.length + 1);
  let route = rest.replace(/\/$/, '') || 'index';
  const query = new URLSearchParams(location.search);
  if (route === 'index' && (query.get('view') === 'services' || query.get('signin'))) route = 'services';
  document.documentElement.dataset.route = route;
}
if (window.navigation) navigation.addEventListener('currententrychange', markRoute);
window.addEventListener('popstate', markRoute);

// 10. Background: posters and particles; CSS stops all motion under reduced motion.
function renderParticles() {
  const box = document.querySelector('.particles');
  if (!box) return;
  const n = particleCount(matchMedia(MOBILE_QUERY).matches);
  if (box.childElementCount === n) return;
  const nodes = [];
  for (let i = 0; i < n; i++) {
    const p = document.createElement('span');
    p.className = 'particle';
    // CSSOM custom properties, not style attributes: allowed under the CSP.
    p.style.setProperty('--x', `${((i * 53) % 100) + (i % 3) * 0.7}%`);
    p.style.setProperty('--y', `${((i * 37) % 90) + 5}%`);
    p.style.setProperty('--size', `${3 + (i % 4) * 2}px`);
    p.style.setProperty('--dur', `${14 + ((i * 7) % 16)}s`);
    p.style.setProperty('--delay', `${-((i * 3.7) % 20).toFixed(1)}s`);
    p.style.setProperty('--drift', `${(i % 2 ? 1 : -1) * (10 + ((i * 11) % 40))}px`);
    nodes.push(p);
  }
  box.replaceChildren(...nodes);
}

function start() {
  renderRows(document);
  renderParticles();
  matchMedia(MOBILE_QUERY).addEventListener('change', renderParticles);
  document.documentElement.classList.toggle('reduced-motion', matchMedia(REDUCED_MOTION_QUERY).matches);
  matchMedia(REDUCED_MOTION_QUERY).addEventListener('change', (e) =>
    document.documentElement.classList.toggle('reduced-motion', e.matches),
  );
  applyLocale(state.locale);
  markRoute();
  if (hasWidget) {
    document.addEventListener('streamcart:currencies-loaded', (e) => {
      try {
        showCurrencies(e.detail);
      } catch (err) {
        console.error('streamcart host: currencies', err);
      }
    });
    document.addEventListener('streamcart:storefront-loaded', (e) => showStorefront(e.detail ?? {}));
    // The widget's script did not load (offline, blocked): the host asks for what it shows itself.
    const orphan = () => {
      if (customElements.get('streamcart-checkout')) return;
      loadCurrencies();
      loadStorefront();
    };
    if (document.readyState === 'complete') orphan();
    else window.addEventListener('load', orphan, { once: true });
  } else {
    loadCurrencies();
    loadStorefront();
  }
  // Service worker: registered where supported, silently skipped elsewhere.
  if ('serviceWorker' in navigator) {
    const register = () => navigator.serviceWorker.register(`${config.base}sw.js`, { scope: config.base }).catch(() => undefined);
    if (document.readyState === 'complete') register();
    else window.addEventListener('load', register, { once: true });
  }
}

start();
