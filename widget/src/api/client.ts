// Typed fetch client for /checkout/api. Every response body is parsed with its valibot schema; an
// answer that does not match becomes an ApiError named "malformed", never an exception elsewhere.
import * as v from 'valibot';
import {
  CurrencyListSchema,
  ErrorBodySchema,
  GatewayListSchema,
  ProductListSchema,
  ProductSchema,
  QuoteSchema,
  StorefrontSchema,
  type Cycle,
  type Money,
  type Quote,
} from './schemas';

export const TIMEOUT_MS = 30_000;

/** An API failure with the stable error name of the contract (also a translation key). */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** The fresh quote carried by a 409 price_changed answer. */
  readonly quote: Quote | null;

  constructor(code: string, status: number, message: string, quote: Quote | null = null) {
    super(message || code);
    this.code = code;
    this.status = status;
    this.quote = quote;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

export interface ClientOptions {
  /** API base, absolute or relative to the page ("/checkout/api"). */
  base: string;
  /** Publishable storefront key, sent as Streamcart-Store. */
  store?: string | null;
  /** Current session token, if any. */
  token?: () => string | null;
  /** Accept-Language value for server-side texts. */
  language?: () => string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface QuoteBody {
  pid: number;
  billingCycle: Cycle;
  currency: string;
  extraConnections: number;
  proxyProtection: boolean;
  promoCode?: string;
  /** The buyer's billing country (ISO 3166 alpha-2), sent once they chose one; the server defaults to the address's. */
  billingCountry?: string;
  /** POST /orders only, sent only when the buyer confirmed a billing country other than their address's. */
  confirmCountry?: boolean;
}

export interface OrderBody extends QuoteBody {
  gateway: string;
  expectedTotal?: Money;
  /** The affiliate id (aff_id digits), sent as a string as the contract types it. */
  affiliateId?: string;
  returnUrl?: string;
  emailSubscription?: boolean;
  /** Stripe only, sent only when the buyer ticked it: save the card and charge each renewal to it. */
  renewWithCard?: boolean;
}

type Query = Record<string, string | number | undefined>;

export interface RequestInit2 {
  query?: Query;
  body?: unknown;
  auth?: boolean;
  headers?: Record<string, string>;
}

function statusCode(status: number): string {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
    case 403:
      return 'unauthorized';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 503:
      return 'unavailable';
    default:
      return status >= 500 ? 'internal' : 'bad_request';
  }
}

export function absoluteUrl(base: string): URL {
  const origin = typeof location !== 'undefined' ? location.href : 'http://localhost/';
  return new URL(base.endsWith('/') ? base : `${base}/`, origin);
}

export function createClient(opts: ClientOptions) {
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;

  function url(path: string, query?: Query): string {
    const u = new URL(path.replace(/^\//, ''), absoluteUrl(opts.base));
    for (const [k, val] of Object.entries(query ?? {})) if (val !== undefined && val !== '') u.searchParams.set(k, String(val));
    return u.toString();
  }

  async function send(method: string, path: string, init: RequestInit2 = {}): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    if (opts.store) headers['Streamcart-Store'] = opts.store;
    const lang = opts.language?.();
    if (lang) headers['Accept-Language'] = lang;
    if (init.auth) {
      const token = opts.token?.();
      if (!token) throw new ApiError('unauthorized', 401, 'No session');
      headers.Authorization = `Bearer ${token}`;
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let res: Response;
    try {
      res = await doFetch(url(path, init.query), {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: controller.signal,
        credentials: 'omit',
      });
    } catch (e) {
      throw new ApiError(timedOut ? 'timeout' : 'network', 0, e instanceof Error ? e.message : String(e));
    } finally {
      clearTimeout(timer);
    }
    if (!res.ok) throw await toError(res);
    return res;
  }

  async function toError(res: Response): Promise<ApiError> {
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      // Not JSON (a proxy's HTML page, say): fall back to the status.
    }
    const parsed = v.safeParse(ErrorBodySchema, body);
    if (!parsed.success) return new ApiError(statusCode(res.status), res.status, '');
    const { name, message, quote } = parsed.output;
    // The fresh quote of a 409 price_changed; a quote that does not parse leaves the error standing.
    const q = quote === undefined ? null : v.safeParse(QuoteSchema, quote);
    return new ApiError(name, res.status, message, q && q.success ? q.output : null);
  }

  async function json<S extends v.GenericSchema>(schema: S, method: string, path: string, init?: RequestInit2): Promise<v.InferOutput<S>> {
    const res = await send(method, path, init);
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new ApiError('malformed', res.status, `${method} ${path}: body is not JSON`);
    }
    const status = res.status;
    const parsed = v.safeParse(schema, body);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const where = issue ? v.getDotPath(issue) : null;
      throw new ApiError('malformed', status, `${method} ${path}: ${where ?? 'body'}: ${issue?.message ?? 'invalid'}`);
    }
    return parsed.output;
  }

  return {
    // `locale` asks for the catalog's texts (names, badges, app lines) in the shown language.
    products: (currency: string, locale?: string) => json(ProductListSchema, 'GET', '/products', { query: { currency, locale } }),
    product: (pid: number, currency: string, locale?: string) =>
      json(ProductSchema, 'GET', `/products/${pid}`, { query: { currency, locale } }),
    resellerProducts: (currency: string, locale?: string) =>
      json(ProductListSchema, 'GET', '/resellers/products', { query: { currency, locale } }),
    currencies: () => json(CurrencyListSchema, 'GET', '/currencies'),
    gateways: (locale?: string) => json(GatewayListSchema, 'GET', '/gateways', { query: { locale } }),
    storefront: (locale?: string) => json(StorefrontSchema, 'GET', '/storefront', { query: { locale } }),
    quote: (body: QuoteBody) => json(QuoteSchema, 'POST', '/quote', { body }),
    deleteSession: async () => {
      await send('DELETE', '/session', { auth: true });
    },
    affiliateClick: async (affId: string, referer: string) => {
      await send('POST', '/affiliates/clicks', { body: { affId, referer } });
    },
    /** Any other call of the contract: the after-sale screens bring their own schemas. */
    request: json,
    send,
    /** Resolves a URL the API returned (a payment link) against the API's origin. */
    resolve: (href: string) => new URL(href, absoluteUrl(opts.base)).toString(),
  };
}

export type Client = ReturnType<typeof createClient>;
