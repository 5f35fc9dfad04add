// Pure decisions of the host script. No DOM access here, so node:test can
// check every rule directly (examples/checkout/test/).

/** sessionStorage key holding the time of the last chunk-failure reload. */
export const RELOAD_KEY = 'streamcart:chunk-reload-at';
/** A failed chunk load reloads the page once, never twice within this window (spec §4, §8). */
export const RELOAD_WINDOW_MS = 60_000;
/** Mobile means a window of 768 px or less (spec §2, §9). */
export const MOBILE_QUERY = '(max-width: 768px)';
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';
/** Posters per row (spec §9). */
export const POSTERS_PER_ROW = 12;

/** shouldReload reports whether a chunk failure at `now` may reload, given the stored time of the last reload. */
export function shouldReload(now, last) {
  const t = Number(last);
  if (!Number.isFinite(t) || t <= 0) return true;
  return now - t >= RELOAD_WINDOW_MS;
}

const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError|Loading (CSS )?chunk [\w-]+ failed/i;

/** isChunkLoadError recognises the messages browsers and bundlers give a failed dynamic import. */
export function isChunkLoadError(reason) {
  if (reason == null) return false;
  if (typeof reason === 'string') return CHUNK_ERROR.test(reason);
  if (typeof reason === 'object') {
    if (reason.name === 'ChunkLoadError') return true;
    if (typeof reason.message === 'string') return CHUNK_ERROR.test(reason.message);
  }
  return false;
}

/** canPrefetch is false on 2g (and slow-2g) and when the visitor asked to save data (spec §9). */
export function canPrefetch(connection) {
  if (!connection) return true;
  if (connection.saveData === true) return false;
  const type = String(connection.effectiveType ?? '');
  return !/(^|-)2g$/.test(type);
}

/** particleCount: 10 floating particles on mobile, 20 otherwise (spec §2). */
export function particleCount(mobile) {
  return mobile ? 10 : 20;
}

/** normalizeLocale maps the spec's "en-en" to the widget's "en" and lower-cases. */
export function normalizeLocale(code) {
  const c = String(code ?? '')
    .trim()
    .toLowerCase()
    .replace('_', '-');
  return c === 'en-en' ? 'en' : c;
}

/**
 * localeHref rewrites a path under base to another locale prefix, keeping
 * the route, the query and the hash ("en" means no prefix).
 */
export function localeHref({ pathname, search = '', hash = '' }, base, prefixes, target) {
  let rest = pathname.startsWith(base) ? pathname.slice(base.length) : '';
  for (const p of prefixes) {
    if (rest === p || rest.startsWith(p + '/')) {
      rest = rest.slice(p.length).replace(/^\//, '');
      break;
    }
  }
  const code = normalizeLocale(target);
  const prefix = code === 'en' || !prefixes.includes(code) ? '' : code + '/';
  return base + prefix + rest + search + hash;
}

/** currencyLabel shows a currency as "EUR (€)" from its code, prefix and suffix. */
export function currencyLabel({ code, prefix = '', suffix = '' }) {
  const symbol = String(prefix || suffix || '').trim();
  return symbol && symbol.toUpperCase() !== String(code).toUpperCase() ? `${code} (${symbol})` : String(code);
}

/**
 * currencySymbol is the sign the currency button shows for code: its prefix or suffix from GET
 * /currencies when it has one, else the sign the browser writes for it ("£" for GBP), else the code.
 */
export function currencySymbol(code, currencies = [], locale = 'en') {
  const c = currencies.find((x) => x.code === code);
  const own = String(c?.prefix || c?.suffix || '').trim();
  if (own) return own;
  try {
    const parts = new Intl.NumberFormat(locale, { style: 'currency', currency: code, currencyDisplay: 'narrowSymbol' }).formatToParts(0);
    return parts.find((p) => p.type === 'currency')?.value ?? code;
  } catch {
    return code;
  }
}

/**
 * shownLocale is the switcher's entry for a locale: its own when the menu lists it, else the listed
 * one of its language (en-us and en-gb are not listed: the button shows the menu's English), else
 * none (an unknown locale: a globe and its raw code).
 */
export function shownLocale(locales, code) {
  const own = locales.find((l) => l.code === code);
  if (own?.listed) return own;
  const lang = String(code).split('-')[0];
  return locales.find((l) => l.listed && l.code.split('-')[0] === lang) ?? own ?? null;
}

/** parseCurrencies checks a GET /currencies answer and returns its codes and default. */
export function parseCurrencies(data) {
  if (!data || typeof data !== 'object' || !Array.isArray(data.currencies)) {
    throw new TypeError('malformed currencies answer');
  }
  const currencies = data.currencies
    .filter((c) => c && typeof c.code === 'string' && /^[A-Z]{3}$/.test(c.code))
    .map((c) => ({
      code: c.code,
      prefix: typeof c.prefix === 'string' ? c.prefix : '',
      suffix: typeof c.suffix === 'string' ? c.suffix : '',
    }));
  if (currencies.length === 0) throw new TypeError('no currencies');
  const def = typeof data.default === 'string' && currencies.some((c) => c.code === data.default) ? data.default : currencies[0].code;
  return { currencies, default: def };
}

/** safeHttpURL returns url when it is an absolute http(s) URL, else ''. */
export function safeHttpURL(url) {
  try {
    const u = new URL(String(url));
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : '';
  } catch {
    return '';
  }
}

/**
 * offShop says whether an account dashboard URL leads out of the storefront (another origin, or a
 * path outside base): only then is it behind "Login"; the storefront's own address would only
 * reload the page, so "Login" opens the sign-in form instead.
 */
export function offShop(url, here, base = '/checkout/') {
  const abs = safeHttpURL(url ? new URL(String(url), here).href : '');
  if (!abs) return false;
  const u = new URL(abs);
  return u.origin !== new URL(here).origin || !(u.pathname + '/').startsWith(base);
}
