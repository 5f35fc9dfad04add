// An in-memory stand-in for /checkout/api, installed as fetch. Its answers are checked against the
// served OpenAPI document (test/api/contract.ts): one that drifts from the contract fails the test.
import { afterEach, expect, vi, type Mock } from 'vitest';
import { body } from './api/fixtures';
import { contract, defaultReply, type Reply } from './api/mock';

type Json = Record<string, unknown>;
const money = (amount: number, currency = 'EUR') => ({ amount, currency });

export function product(pid: number, over: Json = {}): Json {
  return {
    pid,
    name: `Plan ${pid}`,
    description: 'All channels in HD',
    features: ['10,000+ channels', 'HD and 4K'],
    trial: false,
    group: 'plan',
    cycles: ['monthly', 'annually'],
    pricing: { monthly: money(1299), annually: money(9999) },
    currency: 'EUR',
    configOptions: [
      { id: 2, name: 'Extra connections', type: 'quantity', maxQty: 4, pricing: { monthly: money(300), annually: money(2400) } },
      { id: 4, name: 'Proxy protection', type: 'yesno', maxQty: 1, pricing: { monthly: money(200), annually: money(1500) } },
    ],
    customFields: [],
    saveBadge: '',
    soldBadge: '',
    guarantee: '',
    credits: 0,
    ...over,
  };
}

export const catalog = (): Json[] => [
  product(1, {
    name: 'Free Trial',
    trial: true,
    cycles: ['monthly'],
    pricing: { monthly: money(0) },
    configOptions: [],
    guarantee: '',
  }),
  product(2, { name: 'Premium', saveBadge: 'Save 20%', soldBadge: 'Best seller', guarantee: '30-day money-back guarantee' }),
  product(3, { name: 'Family', pricing: { monthly: money(1999), annually: money(14999) } }),
  product(4, { name: 'Hidden fourth' }),
];

/** A token in the API's format (base64url claims . signature) with the given scope. */
export function sessionToken(email: string, scope: 'email' | 'proven' = 'proven'): string {
  const claims = { cid: 7, sid: `ses_${scope}`, scp: scope, eml: email, iat: 1_700_000_000, exp: 1_900_000_000 };
  const body = btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${body}.c2ln`;
}

export const PASSWORD = 'correct-horse';

/** The client's public id, as the API makes them (usr_ and 26 characters). */
export const USER_ID = 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab';

/** A service as GET /services answers it. */
export function service(id: string, over: Json = {}): Json {
  return {
    serviceId: id,
    orderId: `o-${id}`,
    pid: 2,
    name: 'Premium',
    status: 'Active',
    username: 'sc12345678',
    password: '123456789012',
    serverHostname: 'http://tv.example:8080',
    maxConnections: 1,
    macAddress: '',
    billingCycle: 'monthly',
    nextDueDate: '2030-02-01',
    expiresAt: '2030-02-01T00:00:00Z',
    trial: false,
    playlistUrl: '',
    autoRenew: true,
    renewsWithCard: false,
    renewalInvoiceId: null,
    renewalOrderId: null,
    recurringAmount: money(1299),
    ...over,
  };
}

/** An order as GET /orders/{id} answers it. */
export function order(id: string, over: Json = {}): Json {
  return {
    orderId: id,
    invoiceId: `i-${id}`,
    serviceIds: [`s-${id}`],
    status: 'pending',
    fraud: false,
    total: money(1299),
    paymentUrl: '',
    paymentDeadline: '',
    createdAt: '2030-01-01T00:00:00Z',
    quote: quote({ pid: 2, billingCycle: 'monthly', currency: 'EUR' }),
    ...over,
  };
}

/** A reseller credit plan as GET /resellers/services/{id} answers it. */
export function resellerService(id: string, over: Json = {}): Json {
  return { ...body('resellers.getService', '200'), serviceId: id, orderId: 'o-res', ...over };
}

/** A promotion as GET /promotions/{code} answers it (SAVE10 or PREMIUM5), or undefined. */
export function promotion(code: string): Json | undefined {
  if (code === 'SAVE10') return { code, type: 'Percentage', value: '10', appliesTo: [], startDate: '', expirationDate: '' };
  if (code === 'PREMIUM5') return { code, type: 'Fixed Amount', value: '5.00', appliesTo: [2], startDate: '', expirationDate: '' };
  return undefined;
}

/** The pay-link token GET/POST /invoices/{id}?t= accept; any other is a stale or wrong one (404). */
export const PAY_TOKEN = 'pay-token';

/** A renewal invoice as GET /invoices/{id} answers it. */
export function invoice(id: string, over: Json = {}): Json {
  return {
    invoiceId: id,
    orderId: `o-${id}`,
    serviceId: 's-1',
    serviceName: 'Premium',
    username: 'sc12345678',
    status: 'unpaid',
    billingCycle: 'monthly',
    periodStart: '2030-02-01',
    periodEnd: '2030-03-01',
    nextDueDate: '2030-02-01',
    serviceStatus: 'Active',
    lines: [
      { description: 'Premium — monthly', amount: money(1299) },
      { description: '1 extra connection', amount: money(300) },
    ],
    total: money(1599),
    gateway: 'sandbox',
    gateways: [
      { module: 'sandbox', displayName: 'Card (sandbox)' },
      { module: 'coinbase', displayName: 'Crypto' },
    ],
    paymentDeadline: '2030-02-06T00:00:00Z',
    ...over,
  };
}

export interface Call {
  url: string;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: Json | null;
}

type Handler = (call: Call) => Response | Json | Promise<Response | Json>;

export interface FakeApi {
  calls: Call[];
  /**
   * Replace the handler for "METHOD /path" (path with ids, e.g. "GET /orders/o-1"). Its answers are
   * contract-checked like the defaults, unless `offContract` says the test breaks the contract on
   * purpose (a malformed answer the widget must survive).
   */
  on(route: string, handler: Handler, options?: { offContract?: boolean }): void;
  orderStatuses: string[];
  /** Statuses GET /invoices/{id} answers in turn (the last one repeats). */
  invoiceStatuses: string[];
  /** The currency GET /products answers in when asked for none (the storefront's default). */
  storeCurrency: string;
  fetch: Mock<typeof fetch>;
  callsTo(route: string): Call[];
}

export function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function apiError(status: number, name: string, message: string, extra: Json = {}): Response {
  return json(status, { name, message, id: 'x', temporary: false, timeout: false, fault: false, ...extra });
}

/** 409 price_changed as the API sends it: the fresh quote instead of an error's bookkeeping fields. */
export function priceChanged(message: string, quote: Json): Response {
  return json(409, { name: 'price_changed', message, quote });
}

/** GET /storefront of the default storefront (no key): the shop's own texts, links and no theme. */
export function storefront(over: Json = {}): Json {
  return { ...body('catalog.storefront', '200'), ...over };
}

/** The rates of the shared currencies fixture (the demo catalog's). */
const RATES: Record<string, number> = Object.fromEntries(
  body<{ currencies: { code: string; rate: string }[] }>('catalog.listCurrencies', '200').currencies.map((c) => [c.code, Number(c.rate)]),
);

/** POST /quote's answer to `body`, or its refusal. */
export function quote(body: Json): Response | Json {
  const p = catalog().find((x) => x.pid === body.pid);
  if (!p) return apiError(404, 'not_found', 'Product not found');
  const cycle = String(body.billingCycle);
  const cur = String(body.currency ?? 'EUR');
  const rate = RATES[cur];
  if (!rate) return apiError(400, 'unknown_currency', 'Unknown currency');
  const conv = (n: number) => Math.round(n * rate);
  const pricing = p.pricing as Record<string, { amount: number }>;
  if (!pricing[cycle]) return apiError(400, 'bad_request', 'Unknown billing cycle');
  const lines = [{ key: 'plan', label: `${String(p.name)} (${cycle})`, amount: money(conv(pricing[cycle].amount), cur) }];
  const opts = p.configOptions as { id: number; pricing: Record<string, { amount: number }> }[];
  const extra = Number(body.extraConnections ?? 0);
  if (extra > 0)
    lines.push({
      key: 'extraConnections',
      label: `${extra} extra connections`,
      amount: money(conv(opts[0]!.pricing[cycle]!.amount * extra), cur),
    });
  if (body.proxyProtection)
    lines.push({ key: 'proxyProtection', label: 'Proxy protection', amount: money(conv(opts[1]!.pricing[cycle]!.amount), cur) });
  const subtotal = lines.reduce((s, l) => s + l.amount.amount, 0);
  let discount: Json | null = null;
  if (body.promoCode) {
    const code = String(body.promoCode);
    if (code !== 'SAVE10' && code !== 'PREMIUM5') return apiError(404, 'not_found', 'Promotion not found');
    if (code === 'PREMIUM5' && body.pid !== 2) return apiError(422, 'not_applicable', 'This Coupon is not available for this product.');
    const off = code === 'SAVE10' ? Math.round(subtotal / 10) : conv(500);
    discount = {
      code,
      type: code === 'SAVE10' ? 'Percentage' : 'Fixed Amount',
      value: code === 'SAVE10' ? '10' : '5.00',
      amount: money(off, cur),
    };
  }
  const total = Math.max(0, subtotal - (discount ? (discount.amount as { amount: number }).amount : 0));
  return {
    pid: p.pid,
    billingCycle: cycle,
    currency: cur,
    extraConnections: extra,
    proxyProtection: !!body.proxyProtection,
    lines,
    subtotal: money(subtotal, cur),
    discount,
    total: money(total, cur),
  };
}

/** Contract breaches of the answers given in the running test; checked after each test. */
const breaches: string[] = [];

afterEach(() => {
  const found = breaches.splice(0);
  expect(found, 'the fake API answered off the contract').toEqual([]);
});

/** The status the operation answers with when it succeeds (201 for a creation), as the server. */
function successStatus(call: Call): number {
  const op = contract.match(call.method, new URL(call.url).pathname)?.op;
  return [...(op?.responses.keys() ?? [])].find((s) => s >= 200 && s < 300) ?? 200;
}

async function checkAnswer(call: Call, response: Response): Promise<void> {
  const found = contract.match(call.method, new URL(call.url).pathname);
  if (!found) {
    breaches.push(`${call.method} ${call.path} is not an operation of the contract`);
    return;
  }
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('json')) return;
  const text = await response.clone().text();
  const body = text ? (JSON.parse(text) as unknown) : null;
  for (const p of contract.checkResponse(found.op.key, response.status, body))
    breaches.push(`${call.method} ${call.path} → ${response.status}: ${p}`);
}

/** The answer of the mock Storybook uses (test/api/mock.ts), from the shared fixtures. */
function shared(call: Call): Response {
  const found = contract.match(call.method, new URL(call.url).pathname);
  if (!found) return apiError(404, 'not_found', `No route ${call.method} ${call.path}`);
  const reply: Reply = defaultReply({
    op: found.op.key,
    method: call.method,
    url: call.url,
    path: call.path,
    params: found.params,
    query: call.query,
    headers: new Headers(call.headers),
    body: call.body,
  });
  if (reply.text !== undefined) return new Response(reply.text, { status: reply.status, headers: { 'Content-Type': 'audio/x-mpegurl' } });
  return reply.body === undefined ? new Response(null, { status: reply.status }) : json(reply.status, reply.body);
}

export function installFakeApi(): FakeApi {
  const handlers = new Map<string, Handler>();
  const offContract = new Set<string>();
  const calls: Call[] = [];
  const orders = new Map<string, Json>();
  let nextOrder = 1;
  const api: FakeApi = {
    calls,
    orderStatuses: ['pending', 'paid', 'active'],
    invoiceStatuses: ['unpaid'],
    storeCurrency: 'EUR',
    on: (route, handler, options) => {
      handlers.set(route, handler);
      if (options?.offContract) offContract.add(route);
      else offContract.delete(route);
    },
    fetch: vi.fn(),
    callsTo: (route) => calls.filter((c) => `${c.method} ${c.path}` === route),
  };

  const defaults: Record<string, Handler> = {
    'GET /products': (c) => ({
      products: catalog()
        .slice(0, 3)
        .map((p) => convertProduct(p, c.query.get('currency') ?? api.storeCurrency)),
    }),
    'GET /resellers/products': shared,
    'GET /currencies': shared,
    'GET /gateways': shared,
    'GET /geo': shared,
    'GET /storefront': () => storefront(),
    'POST /quote': (c) => quote(c.body ?? {}),
    'POST /session': (c) => {
      const email = String(c.body?.email ?? '');
      if (!/^\S+@\S+\.\S+$/.test(email)) return apiError(400, 'invalid_email', 'Please enter a Valid Email.');
      if (c.body?.password !== undefined) {
        if (email === 'throttled@example.com')
          return apiError(429, 'too_many_attempts', 'Too many failed sign-in attempts. Please wait 15 minutes and try again.');
        if (c.body.password !== PASSWORD) return apiError(401, 'invalid_credentials', 'Wrong email or password.');
        return json(201, { token: sessionToken(email), userId: USER_ID, email, scope: 'proven', expiresAt: '2030-01-01T00:00:00Z' });
      }
      return json(201, { token: `tok-${email}`, userId: USER_ID, email, scope: 'email', expiresAt: '2030-01-01T00:00:00Z' });
    },
    // Always 202, known email or not (no account oracle).
    'POST /session/link': () => new Response(null, { status: 202 }),
    'GET /services': () => ({
      services: [service('s-1'), service('s-2', { name: 'Family', status: 'Cancelled', maxConnections: 2, autoRenew: false })],
    }),
    'GET /upsell/offers': (c) => {
      const cur = c.query.get('currency') ?? 'EUR';
      return {
        offers: [
          {
            serviceId: 's-1',
            name: 'Premium',
            pid: 2,
            billingCycle: 'monthly',
            pricingCycle: 'monthly',
            maxConnections: 1,
            maxExtra: 4,
            unitPrice: money(300, cur),
          },
        ],
      };
    },
    'POST /upsell/quote': (c) => {
      const n = Number(c.body?.extraQuantity);
      if (!(n >= 1 && n <= 4)) return apiError(400, 'bad_request', 'This number of extra connections is not available for this service.');
      return {
        serviceId: c.body?.serviceId,
        extraQuantity: n,
        pricingCycle: 'monthly',
        unitPrice: money(300),
        total: money(300 * n),
        maxConnections: 1 + n,
      };
    },
    'POST /upsell/orders': (c) => {
      const n = Number(c.body?.extraQuantity);
      return json(201, {
        orderId: 'o-up',
        invoiceId: 'i-up',
        serviceId: c.body?.serviceId,
        extraQuantity: n,
        status: 'pending',
        fraud: false,
        total: money(300 * n),
        paymentUrl: '/checkout/api/payments/sandbox/i-up',
        paymentDeadline: '2030-01-02T00:00:00Z',
      });
    },
    'GET /resellers/me': shared,
    'POST /resellers/orders': (c) => {
      if (c.body?.password !== c.body?.confirmPassword) return apiError(422, 'password_mismatch', 'Not the same password');
      // The password is the reseller panel account's: the caller's own session comes back unchanged.
      const token = String(c.headers.authorization ?? '').replace(/^Bearer /, '');
      const email = token.replace(/^tok-/, '');
      return json(201, {
        orderId: 'o-res',
        invoiceId: 'i-res',
        serviceId: 's-res',
        serviceIds: ['s-res'],
        status: 'pending',
        fraud: false,
        total: money(5000),
        paymentUrl: '/checkout/api/payments/sandbox/i-res',
        paymentDeadline: '2030-01-02T00:00:00Z',
        session: { token, userId: USER_ID, email, scope: 'email', expiresAt: '2030-01-01T00:00:00Z' },
      });
    },
    'POST /affiliates/clicks': () => new Response(null, { status: 204 }),
    'DELETE /session': () => new Response(null, { status: 204 }),
  };

  function convertProduct(p: Json, cur: string): Json {
    const rate = RATES[cur] ?? 1;
    const conv = (m: { amount: number }) => money(Math.round(m.amount * rate), cur);
    const pricing = Object.fromEntries(Object.entries(p.pricing as Record<string, { amount: number }>).map(([k, m]) => [k, conv(m)]));
    const configOptions = (p.configOptions as Json[]).map((o) => ({
      ...o,
      pricing: Object.fromEntries(Object.entries(o.pricing as Record<string, { amount: number }>).map(([k, m]) => [k, conv(m)])),
    }));
    return { ...p, pricing, configOptions, currency: cur };
  }

  function dynamic(call: Call): Handler | undefined {
    const { method, path } = call;
    let m: RegExpMatchArray | null;
    if (method === 'GET' && (m = path.match(/^\/products\/(\d+)$/))) {
      const p = catalog().find((x) => x.pid === Number(m![1]));
      return () => (p ? convertProduct(p, call.query.get('currency') ?? 'EUR') : apiError(404, 'not_found', 'Product not found'));
    }
    if (method === 'GET' && (m = path.match(/^\/promotions\/([^/]+)$/))) {
      const code = decodeURIComponent(m[1]!);
      const pid = Number(call.query.get('pid'));
      return () => {
        const found = promotion(code);
        if (found && code === 'PREMIUM5' && pid !== 2)
          return apiError(422, 'not_applicable', 'This Coupon is not available for this product.');
        return found ?? apiError(404, 'not_found', 'Promotion code not found or expired.');
      };
    }
    if (method === 'POST' && path === '/orders') {
      return (c) => {
        if (!c.headers.authorization?.startsWith('Bearer ')) return apiError(401, 'unauthorized', 'Missing token');
        const q = quote(c.body ?? {});
        if (q instanceof Response) return q;
        const total = q.total as { amount: number; currency: string };
        const expected = c.body?.expectedTotal as { amount: number } | undefined;
        if (expected && expected.amount !== total.amount) return priceChanged('The price has changed.', q);
        const id = `o-${nextOrder++}`;
        const free = total.amount === 0;
        const order = {
          orderId: id,
          invoiceId: `i-${id}`,
          serviceIds: [`s-${id}`],
          fraud: false,
          status: free ? 'provisioning' : 'pending',
          total,
          paymentUrl: free ? '' : `/checkout/api/payments/sandbox/i-${id}`,
          paymentDeadline: free ? '' : '2030-01-02T00:00:00Z',
          createdAt: '2030-01-01T00:00:00Z',
          quote: q,
        };
        orders.set(id, order);
        return json(201, order);
      };
    }
    if (method === 'GET' && (m = path.match(/^\/orders\/([^/]+)$/))) {
      const id = decodeURIComponent(m[1]!);
      return () => {
        const o = orders.get(id) ?? order(id);
        const status = api.orderStatuses.length > 1 ? api.orderStatuses.shift()! : api.orderStatuses[0]!;
        return { ...o, status, fraud: status === 'fraud' };
      };
    }
    if (method === 'POST' && (m = path.match(/^\/session\/link\/([^/]+)$/))) {
      const token = decodeURIComponent(m[1]!);
      return () =>
        token === 'good-link'
          ? json(201, {
              token: sessionToken('buyer@example.com'),
              userId: USER_ID,
              email: 'buyer@example.com',
              scope: 'proven',
              expiresAt: '2030-01-01T00:00:00Z',
            })
          : apiError(401, 'invalid_link', 'This sign-in link is invalid, expired or already used. Please ask for a new one.');
    }
    if (method === 'POST' && (m = path.match(/^\/services\/([^/]+)\/(restart|recreate|terminate)$/))) {
      const id = decodeURIComponent(m[1]!);
      const action = m[2]!;
      return (c) => {
        if (action === 'terminate' && c.body?.confirm !== true) return apiError(400, 'bad_request', 'Please confirm.');
        return service(id, action === 'terminate' ? { status: 'Terminated' } : {});
      };
    }
    if (method === 'POST' && (m = path.match(/^\/services\/([^/]+)\/renew$/))) {
      const id = decodeURIComponent(m[1]!);
      return (c) => {
        if (!c.headers.authorization?.startsWith('Bearer ')) return apiError(401, 'unauthorized', 'Missing token');
        const b = c.body ?? {};
        const p = catalog().find((x) => x.pid === (b.pid ?? 2));
        if (!p || p.trial) return apiError(400, 'bad_request', 'This plan is not sold here.');
        const cycle = String(b.billingCycle ?? 'monthly');
        const price = (p.pricing as Record<string, { amount: number }>)[cycle];
        if (!price || cycle === 'onetime') return apiError(400, 'bad_request', 'This billing cycle is not sold for this plan.');
        if (b.gateway !== undefined && !['sandbox', 'coinbase', 'stripe'].includes(String(b.gateway)))
          return apiError(400, 'bad_request', 'Unknown gateway.');
        return json(201, {
          orderId: `o-ren-${id}`,
          invoiceId: `i-ren-${id}`,
          status: 'pending',
          fraud: false,
          serviceIds: [id],
          total: money(price.amount),
          paymentUrl: `/checkout/api/payments/sandbox/i-ren-${id}`,
          paymentDeadline: '2030-02-06T00:00:00Z',
          createdAt: '2030-01-25T00:00:00Z',
          quote: quote({ pid: p.pid, billingCycle: cycle, currency: 'EUR' }) as Json,
        });
      };
    }
    if (method === 'POST' && (m = path.match(/^\/services\/([^/]+)\/(cancel|resume)$/))) {
      const id = decodeURIComponent(m[1]!);
      const action = m[2]!;
      return () => service(id, { autoRenew: action === 'resume' });
    }
    if (method === 'GET' && (m = path.match(/^\/invoices\/([^/]+)$/))) {
      const id = decodeURIComponent(m[1]!);
      return (c) => {
        if (c.query.get('t') !== PAY_TOKEN) return apiError(404, 'not_found', 'The resource does not exist or is not yours.');
        const status = api.invoiceStatuses.length > 1 ? api.invoiceStatuses.shift()! : api.invoiceStatuses[0]!;
        return invoice(id, status === 'paid' ? { status, nextDueDate: '2030-03-01' } : { status });
      };
    }
    if (method === 'POST' && (m = path.match(/^\/invoices\/([^/]+)\/pay$/))) {
      const id = decodeURIComponent(m[1]!);
      return (c) => {
        if (c.query.get('t') !== PAY_TOKEN) return apiError(404, 'not_found', 'The resource does not exist or is not yours.');
        return { paymentUrl: `/checkout/api/payments/sandbox/${id}`, orderId: `o-${id}`, invoiceId: id };
      };
    }
    if (method === 'PUT' && (m = path.match(/^\/services\/([^/]+)\/mac$/))) {
      const id = decodeURIComponent(m[1]!);
      return (c) => {
        const raw = String(c.body?.macAddress ?? '').trim();
        if (!/^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/.test(raw))
          return apiError(400, 'invalid_mac', 'Please enter a valid MAC address.');
        return service(id, { macAddress: raw.replace(/-/g, ':').toUpperCase() });
      };
    }
    if (method === 'GET' && (m = path.match(/^\/resellers\/services\/([^/]+)$/))) {
      const id = decodeURIComponent(m[1]!);
      return () => resellerService(id);
    }
    if (method === 'POST' && (m = path.match(/^\/orders\/([^/]+)\/cancel$/))) {
      const id = decodeURIComponent(m[1]!);
      return () => order(id, { serviceIds: [], status: 'cancelled' });
    }
    if (method === 'GET' && (m = path.match(/^\/services\/([^/]+)\/playlist\.m3u$/))) {
      return () =>
        new Response('#EXTM3U\n#EXTINF:-1 group-title="News",News 1\nhttp://tv.example/live/u/p/1.ts\n', {
          status: 200,
          headers: { 'Content-Type': 'audio/x-mpegurl' },
        });
    }
    if (method === 'GET' && (m = path.match(/^\/services\/([^/]+)$/))) {
      const id = decodeURIComponent(m[1]!);
      return () => service(id, { maxConnections: 2 });
    }
    return undefined;
  }

  api.fetch.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const path = url.pathname.replace(/^\/checkout\/api/, '');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((init.headers ?? {}) as Record<string, string>)) headers[k.toLowerCase()] = v;
    const call: Call = {
      url: url.toString(),
      method: init.method ?? 'GET',
      path,
      query: url.searchParams,
      headers,
      body: init.body ? (JSON.parse(String(init.body)) as Json) : null,
    };
    calls.push(call);
    const route = `${call.method} ${path}`;
    const override = handlers.get(route);
    const handler = override ?? defaults[route] ?? dynamic(call);
    if (!handler) return apiError(404, 'not_found', `No route ${route}`);
    const out = await handler(call);
    const response = out instanceof Response ? out : json(successStatus(call), out);
    // Every answer must be the API's, a test's own (api.on) too, unless it is malformed on purpose.
    if (!(override && offContract.has(route))) await checkAnswer(call, response);
    return response;
  });
  vi.stubGlobal('fetch', api.fetch);
  return api;
}
