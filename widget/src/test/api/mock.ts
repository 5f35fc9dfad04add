// /checkout/api mocked at the network boundary: window.fetch answers from the JSON fixtures. A
// story picks fixtures per operation (parameters.api); the rest get the defaults below, which
// derive what a server computes (prices in another currency, quotes, promo checks) from the
// catalog fixtures. Every request body and every answer is checked against the contract: a
// mismatch is logged with console.error, which fails the smoke test. The widget's Vitest tests use
// the same mock through ./vitest.ts.
import openapi from '../../../../api/httpapi/openapi3.json';
import { loadContract } from './contract';
import { body, fixture, localized, FIXTURES } from './fixtures';

export const contract = loadContract(openapi);

const API_PREFIX = '/checkout/api';

/** The password session.create accepts (for any email); another one is refused (401). */
export const PASSWORD = 'correct-horse';
/** An email whose password sign-ins are throttled (429), whatever the password. */
export const THROTTLED_EMAIL = 'throttled@example.com';
/** The emailed sign-in link token session.redeemLink accepts; any other is invalid or used (401). */
export const LINK_TOKEN = 'good-link';
/** The pay link's token (?t=) invoices.get and invoices.pay accept; the Renewal stories' sc_t. */
export const PAY_TOKEN = 'pl_storybook.sig';

type Json = Record<string, unknown>;
interface Money {
  amount: number;
  currency: string;
}
interface Option {
  id: number;
  name: string;
  pricing: Record<string, Money>;
}
interface Product {
  pid: number;
  name: string;
  cycles: string[];
  pricing: Record<string, Money>;
  currency: string;
  configOptions: Option[];
  [k: string]: unknown;
}

export interface MockRequest {
  op: string;
  method: string;
  url: string;
  /** The path under /checkout/api ("/orders/ord_1"). */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Headers;
  body: Json | null;
}

/** An answer built in code; `offContract` marks one that breaks the contract on purpose. */
export interface Reply {
  status: number;
  body?: unknown;
  text?: string;
  /** A text/event-stream body, passed on as it is written (an order's live status). */
  stream?: ReadableStream<Uint8Array>;
  /** Response headers besides Content-Type (Retry-After). */
  headers?: Record<string, string>;
  offContract?: boolean;
}

/**
 * How a story answers an operation: a fixture name ("200.fraud"), "never" (stays loading),
 * "network" (the request fails like an unreachable server), a list answered in turn (the last
 * one repeats), or a function of the request.
 */
export type Answer = string | Answer[] | ((req: MockRequest) => Reply | Promise<Reply>);
export type ApiScenario = Record<string, Answer>;

// ---- what a server derives from the catalog --------------------------------------------------

const currencies = () => body<{ currencies: { code: string; rate: string }[]; default: string }>('catalog.listCurrencies', '200');

function rate(code: string): number | null {
  const c = currencies().currencies.find((x) => x.code === code.toUpperCase());
  return c ? Number(c.rate) : null;
}

/** Minor units of the default currency in `to`, rounded half away from zero like the server. */
function convert(m: Money, to: string): Money {
  const from = rate(m.currency) ?? 1;
  const r = (rate(to) ?? 1) / from;
  return { amount: Math.round(m.amount * r), currency: to.toUpperCase() };
}

function convertProduct(p: Product, to: string): Product {
  const prices = (pricing: Record<string, Money>) => Object.fromEntries(Object.entries(pricing).map(([k, m]) => [k, convert(m, to)]));
  return {
    ...p,
    currency: to.toUpperCase(),
    pricing: prices(p.pricing),
    configOptions: p.configOptions.map((o) => ({ ...o, pricing: prices(o.pricing) })),
  };
}

function unknownCurrency(op: string, code: string): Reply {
  const b = body<Json>(op, '400.unknown-currency');
  return { status: 400, body: { ...b, message: op === 'pricing.quote' ? b.message : `Unknown currency ${code.toUpperCase()}.` } };
}

function catalogList(op: 'catalog.listProducts' | 'catalog.listResellerProducts', req: MockRequest): Reply {
  const cur = req.query.get('currency') || currencies().default;
  if (rate(cur) === null) return unknownCurrency('catalog.listProducts', cur);
  const f = localized(op, 200, req.query.get('locale'));
  const list = structuredClone(f.body) as { products: Product[] };
  return { status: 200, body: { products: list.products.map((p) => convertProduct(p, cur)) } };
}

function allProducts(): Product[] {
  return [
    ...body<{ products: Product[] }>('catalog.listProducts', '200').products,
    ...body<{ products: Product[] }>('catalog.listResellerProducts', '200').products,
  ];
}

interface Promotion {
  code: string;
  type: string;
  value: string;
  appliesTo: number[];
}

function promotions(): Promotion[] {
  return [...FIXTURES.values()].filter((f) => f.op === 'promotion.get' && f.status === 200).map((f) => f.body as Promotion);
}

/** Spec §5: the code must exist and apply to the product. */
function checkPromotion(code: string, pid: number): Promotion | 'not_found' | 'not_applicable' {
  const p = promotions().find((x) => x.code === code.trim().toUpperCase());
  if (!p) return 'not_found';
  if (pid > 0 && p.appliesTo.length > 0 && !p.appliesTo.includes(pid)) return 'not_applicable';
  return p;
}

const CYCLE_LABELS: Record<string, string> = {
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  semiannually: 'Semi-Annually',
  annually: 'Annually',
  biennially: 'Biennially',
  triennially: 'Triennially',
  onetime: 'One Time',
};

/** POST /quote as the server prices it: plan, extra connections (option 2), proxy (option 4), promo. */
function quote(b: Json): Reply {
  const cur = String(b.currency ?? currencies().default);
  if (rate(cur) === null) return unknownCurrency('pricing.quote', cur);
  const product = allProducts().find((p) => p.pid === b.pid);
  if (!product) return { status: 404, body: body('pricing.quote', '404.product') };
  const cycle = String(b.billingCycle ?? product.cycles[0]);
  const price = product.pricing[cycle];
  if (!price) return { status: 400, body: body('pricing.quote', '400.cycle') };
  const extra = Number(b.extraConnections ?? 0);
  const extraOption = product.configOptions.find((o) => o.id === 2);
  const proxyOption = product.configOptions.find((o) => o.id === 4);
  if (extra < 0 || (extra > 0 && !extraOption?.pricing[cycle]) || (b.proxyProtection && !proxyOption?.pricing[cycle])) {
    return { status: 400, body: body('pricing.quote', '400.extras') };
  }
  const money = (m: Money) => convert(m, cur);
  const lines = [{ key: 'plan', label: `${product.name} — ${CYCLE_LABELS[cycle] ?? cycle}`, amount: money(price) }];
  if (extra > 0 && extraOption) {
    const unit = money(extraOption.pricing[cycle]!);
    lines.push({
      key: 'extraConnections',
      label: extra === 1 ? '1 extra connection' : `${extra} extra connections`,
      amount: { ...unit, amount: unit.amount * extra },
    });
  }
  if (b.proxyProtection && proxyOption)
    lines.push({ key: 'proxyProtection', label: 'Proxy protection', amount: money(proxyOption.pricing[cycle]!) });
  const subtotal = { amount: lines.reduce((s, l) => s + l.amount.amount, 0), currency: cur.toUpperCase() };
  const result: Json = {
    pid: product.pid,
    billingCycle: cycle,
    currency: cur.toUpperCase(),
    extraConnections: extra,
    proxyProtection: !!b.proxyProtection,
    lines,
    subtotal,
    // As the server: always present, null without a code.
    discount: null,
    total: subtotal,
    // As a server whose catalog has no tax block: the net is the total, no tax.
    net: subtotal,
    tax: null,
    // As the server: each next period at the full price (the fixtures' promotions are one-time);
    // null for a trial, a one-time plan and reseller credits.
    recurring:
      product.trial || cycle === 'onetime' || product.group === 'reseller'
        ? null
        : { amount: subtotal.amount, currency: subtotal.currency, billingCycle: cycle },
  };
  if (b.promoCode) {
    const promo = checkPromotion(String(b.promoCode), product.pid);
    if (promo === 'not_found') return { status: 404, body: body('pricing.quote', '404.promotion') };
    if (promo === 'not_applicable') return { status: 422, body: body('pricing.quote', '422') };
    const off =
      promo.type === 'Percentage'
        ? Math.round((subtotal.amount * Number(promo.value)) / 100)
        : convert({ amount: Math.round(Number(promo.value) * 100), currency: currencies().default }, cur).amount;
    const amount = { amount: Math.min(off, subtotal.amount), currency: subtotal.currency };
    result.discount = { code: promo.code, type: promo.type, value: promo.value, amount };
    result.total = { amount: subtotal.amount - amount.amount, currency: subtotal.currency };
    result.net = result.total;
  }
  return { status: 200, body: result };
}

function services(): Json[] {
  return body<{ services: Json[] }>('services.list', '200').services;
}

/** The service `id` of the list or of a services.get fixture (the trial's), else the base one as `id`. */
function service(id: string, patch: Json = {}): Reply {
  const fixtures = [...FIXTURES.values()].filter((f) => f.op === 'services.get' && f.status === 200).map((f) => f.body as Json);
  const s = [...services(), ...fixtures].find((x) => x.serviceId === id) ?? { ...body<Json>('services.get', '200'), serviceId: id };
  return { status: 200, body: { ...s, ...patch } };
}

const MAC = /^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/;
const EMAIL = /^\S+@\S+\.\S+$/;

const fromFixture = (op: string, name: string): Reply => {
  const f = fixture(op, name);
  return { status: f.status, body: structuredClone(f.body) };
};

/** What every operation answers unless the story says otherwise. */
const DEFAULTS: Record<string, (req: MockRequest) => Reply> = {
  'catalog.listProducts': (r) => catalogList('catalog.listProducts', r),
  'catalog.listResellerProducts': (r) => catalogList('catalog.listResellerProducts', r),
  'catalog.getProduct': (r) => {
    const cur = r.query.get('currency') || currencies().default;
    if (rate(cur) === null) return unknownCurrency('catalog.listProducts', cur);
    const p = allProducts().find((x) => x.pid === Number(r.params.pid));
    return p ? { status: 200, body: convertProduct(p, cur) } : fromFixture('catalog.getProduct', '404');
  },
  'catalog.listCurrencies': () => fromFixture('catalog.listCurrencies', '200'),
  'catalog.listGateways': (r) => ({ status: 200, body: localized('catalog.listGateways', 200, r.query.get('locale')).body }),
  'catalog.storefront': (r) => ({ status: 200, body: localized('catalog.storefront', 200, r.query.get('locale')).body }),
  'catalog.devices': (r) => ({ status: 200, body: localized('catalog.devices', 200, r.query.get('locale')).body }),
  'geo.lookup': () => fromFixture('geo.lookup', '200'),
  'affiliates.click': () => ({ status: 204 }),
  'promotion.get': (r) => {
    const p = checkPromotion(r.params.code ?? '', Number(r.query.get('pid') ?? 0));
    if (p === 'not_found') return fromFixture('promotion.get', '404');
    if (p === 'not_applicable') return fromFixture('promotion.get', '422');
    return { status: 200, body: promotions().find((x) => x.code === p.code) };
  },
  'pricing.quote': (r) => quote(r.body ?? {}),
  'session.create': (r) => {
    const email = String(r.body?.email ?? '');
    if (!EMAIL.test(email)) return fromFixture('session.create', '400.invalid-email');
    const password = r.body?.password;
    if (password !== undefined && email === THROTTLED_EMAIL) return fromFixture('session.create', '429');
    if (password !== undefined && password !== PASSWORD) return fromFixture('session.create', '401.invalid-credentials');
    const s = fromFixture('session.create', password === undefined ? '201' : '201.proven');
    return { ...s, body: { ...(s.body as Json), email } };
  },
  'session.delete': () => ({ status: 204 }),
  'session.requestLink': () => ({ status: 202 }),
  'session.redeemLink': (r) => fromFixture('session.redeemLink', r.params.token === LINK_TOKEN ? '201' : '401'),
  'order.create': (r) => {
    const q = quote(r.body ?? {});
    if (q.status !== 200) return q;
    const total = (q.body as Json).total as Money;
    const expected = r.body?.expectedTotal as Money | undefined;
    if (expected && (expected.amount !== total.amount || expected.currency !== total.currency)) {
      return { status: 409, body: { ...body<Json>('order.create', '409.price-changed'), quote: q.body } };
    }
    const o = fromFixture('order.create', total.amount === 0 ? '201.trial' : '201');
    const { net, tax } = q.body as Json;
    return { ...o, body: { ...(o.body as Json), total, net, tax, quote: q.body } };
  },
  'order.get': (r) => {
    const o = fromFixture('order.get', '200.pending');
    return { ...o, body: { ...(o.body as Json), orderId: r.params.orderId } };
  },
  'order.list': () => fromFixture('order.list', '200'),
  // The live status stream is refused (429, as past the server's caps) unless a test or story
  // streams: the widget then polls order.get, whose answers the scenarios set.
  'order.events': () => ({ ...fromFixture('order.events', '429'), headers: { 'Retry-After': '30' } }),
  'order.cancel': (r) => {
    const o = fromFixture('order.cancel', '200');
    return { ...o, body: { ...(o.body as Json), orderId: r.params.orderId } };
  },
  'services.list': () => fromFixture('services.list', '200'),
  'services.get': (r) => service(r.params.serviceId!),
  'services.restart': (r) => service(r.params.serviceId!),
  'services.recreate': (r) => service(r.params.serviceId!),
  'services.terminate': (r) =>
    r.body?.confirm === true ? service(r.params.serviceId!, { status: 'Terminated' }) : fromFixture('services.terminate', '400'),
  'services.setMac': (r) => {
    const mac = String(r.body?.macAddress ?? '').trim();
    if (!MAC.test(mac)) return fromFixture('services.setMac', '400');
    return service(r.params.serviceId!, { macAddress: mac.replace(/-/g, ':').toUpperCase() });
  },
  // Renewals (issue 13): renew answers the open renewal invoice's order; the pay link's invoice.
  'services.renew': (r) => {
    // The service's plan and cycle unless the buyer picks others (a trial continues with a paid plan).
    const s = service(r.params.serviceId!).body as Json;
    const q = quote({ pid: r.body?.pid ?? s.pid, billingCycle: r.body?.billingCycle ?? s.billingCycle });
    if (q.status !== 200) return q;
    const o = fromFixture('services.renew', '201');
    const { total, net, tax } = q.body as Json;
    return { ...o, body: { ...(o.body as Json), serviceIds: [r.params.serviceId], total, net, tax, quote: q.body } };
  },
  'services.cancel': (r) => service(r.params.serviceId!, { autoRenew: false, renewalInvoiceId: null, renewalOrderId: null }),
  'services.resume': (r) => service(r.params.serviceId!, { autoRenew: true }),
  'invoices.get': (r) => {
    if (r.query.get('t') !== PAY_TOKEN) return fromFixture('invoices.get', '404');
    const f = fromFixture('invoices.get', '200');
    return { ...f, body: { ...(f.body as Json), invoiceId: r.params.invoiceId } };
  },
  'invoices.pay': (r) => {
    if (r.query.get('t') !== PAY_TOKEN) return fromFixture('invoices.pay', '404');
    const f = fromFixture('invoices.pay', '200');
    return { ...f, body: { ...(f.body as Json), invoiceId: r.params.invoiceId } };
  },
  // The PDF opens with the buyer's session only (a plain link, without the header, is a 404).
  'invoices.pdf': (r) =>
    BEARER.test(r.headers.get('Authorization') ?? '')
      ? { status: 200, text: `%PDF-1.7\n% invoice ${r.params.invoiceId}\n%%EOF\n` }
      : {
          status: 404,
          body: { name: 'not_found', message: 'Invoice not found.', id: 'x', temporary: false, timeout: false, fault: false },
        },
  'invoices.creditNotePdf': (r) =>
    BEARER.test(r.headers.get('Authorization') ?? '')
      ? { status: 200, text: `%PDF-1.7\n% credit note ${r.params.creditNoteId}\n%%EOF\n` }
      : {
          status: 404,
          body: { name: 'not_found', message: 'Credit note not found.', id: 'x', temporary: false, timeout: false, fault: false },
        },
  // The line's QR code, for its session only (the server draws the real one; this one is a square).
  'services.qr': (r) =>
    BEARER.test(r.headers.get('Authorization') ?? '')
      ? {
          status: 200,
          headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'private, no-store' },
          text: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><title>${r.query.get('kind') ?? 'xtream'} ${r.params.serviceId}</title><rect width="29" height="29" fill="#fff"/><path d="M4 4h7v7h-7z"/></svg>`,
        }
      : {
          status: 404,
          body: { name: 'not_found', message: 'Service not found.', id: 'x', temporary: false, timeout: false, fault: false },
        },
  'services.playlist': (r) => ({
    status: 200,
    text: `#EXTM3U\n#EXTINF:-1 tvg-id="news" group-title="News",News 1\nhttp://line.streamcart.local:8000/live/${r.params.serviceId}/1.ts\n`,
  }),
  'upsell.offers': (r) => {
    const cur = r.query.get('currency') || currencies().default;
    const o = body<{ offers: { unitPrice: Money }[] }>('upsell.offers', '200');
    return { status: 200, body: { offers: o.offers.map((x) => ({ ...x, unitPrice: convert(x.unitPrice, cur) })) } };
  },
  'upsell.quote': (r) => {
    const cur = String(r.body?.currency ?? currencies().default);
    const n = Number(r.body?.extraQuantity);
    const offer = body<{
      offers: { serviceId: string; pricingCycle: string; maxConnections: number; maxExtra: number; unitPrice: Money }[];
    }>('upsell.offers', '200').offers.find((o) => o.serviceId === r.body?.serviceId);
    if (!offer) return fromFixture('upsell.quote', '404');
    if (!(Number.isInteger(n) && n >= 1 && n <= offer.maxExtra)) return fromFixture('upsell.quote', '400');
    const unit = convert(offer.unitPrice, cur);
    return {
      status: 200,
      body: {
        serviceId: offer.serviceId,
        extraQuantity: n,
        pricingCycle: offer.pricingCycle,
        unitPrice: unit,
        total: { ...unit, amount: unit.amount * n },
        maxConnections: offer.maxConnections + n,
      },
    };
  },
  'upsell.order': () => fromFixture('upsell.order', '201'),
  'resellers.me': () => fromFixture('resellers.me', '200'),
  'resellers.order': (r) => {
    if (String(r.body?.password ?? '').length < 8) return fromFixture('resellers.order', '400.weak-password');
    if (r.body?.password !== r.body?.confirmPassword) return fromFixture('resellers.order', '422');
    const product = allProducts().find((p) => p.pid === r.body?.pid);
    const o = fromFixture('resellers.order', '201');
    const total = product?.pricing.monthly ? convert(product.pricing.monthly, String(r.body?.currency ?? 'EUR')) : undefined;
    return { ...o, body: { ...(o.body as Json), ...(total ? { total } : {}) } };
  },
  'resellers.getService': (r) => {
    const s = fromFixture('resellers.getService', '200');
    return { ...s, body: { ...(s.body as Json), serviceId: r.params.serviceId } };
  },
};

const BEARER = /^Bearer \S/;

/**
 * What `req` gets when nobody says otherwise. An operation that wants a session is refused
 * without one, as the server does before anything else.
 */
export function defaultReply(req: MockRequest): Reply {
  if (contract.operations.get(req.op)?.secured && !BEARER.test(req.headers.get('Authorization') ?? ''))
    // Every operation's 401 is the same error: one fixture says it.
    return fromFixture('services.list', '401');
  return (DEFAULTS[req.op] ?? notMocked)(req);
}

// ---- the fetch replacement ---------------------------------------------------------------------

const NEVER = new Promise<never>(() => undefined);

export interface MockApi {
  /** Every request the widget made, in order ("GET catalog.listProducts"). */
  calls: MockRequest[];
  /** Answers `op` with `answer` from now on (a list starts again from its first answer). */
  set(op: string, answer: Answer): void;
  uninstall(): void;
}

export interface MockOptions {
  /** Where contract breaches go; console.error by default (it fails Storybook's smoke test). */
  report?: (problem: string) => void;
}

/** Replaces window.fetch for /checkout/api/…; other URLs (Storybook's own) go to the network. */
export function installMockApi(initial: ApiScenario = {}, { report = console.error }: MockOptions = {}): MockApi {
  const original = window.fetch.bind(window);
  const calls: MockRequest[] = [];
  const turns = new Map<string, number>();
  const scenario: ApiScenario = {};
  // Orders placed by default, so that order.get of their id answers them as the server would.
  const placed = new Map<string, Reply>();

  // Fixture names in the scenario are checked now, so a typo fails the story at once.
  const check = (op: string, a: Answer) => {
    if (!contract.operations.has(op)) throw new Error(`parameters.api: no operation ${op} in the contract`);
    if (typeof a === 'string' && a !== 'never' && a !== 'network') fixture(op, a);
    if (Array.isArray(a)) a.forEach((x) => check(op, x));
  };
  const set = (op: string, a: Answer) => {
    check(op, a);
    scenario[op] = a;
    turns.delete(op);
  };
  for (const [op, a] of Object.entries(initial)) set(op, a);

  function byDefault(req: MockRequest): Reply {
    const known = req.op === 'order.get' && placed.get(req.params.orderId!);
    if (known && BEARER.test(req.headers.get('Authorization') ?? '')) return structuredClone(known);
    const reply = defaultReply(req);
    if (req.op === 'order.create' && reply.status === 201)
      placed.set(String((reply.body as Json).orderId), { ...structuredClone(reply), status: 200 });
    return reply;
  }

  async function answer(req: MockRequest): Promise<Response> {
    let a: Answer | undefined = scenario[req.op];
    if (Array.isArray(a)) {
      const n = turns.get(req.op) ?? 0;
      turns.set(req.op, n + 1);
      a = a[Math.min(n, a.length - 1)];
    }
    if (a === 'never') return NEVER;
    if (a === 'network') throw new TypeError('Failed to fetch');
    const reply: Reply = typeof a === 'string' ? fromFixture(req.op, a) : typeof a === 'function' ? await a(req) : byDefault(req);
    if (!reply.offContract) {
      const problems =
        reply.text !== undefined || reply.stream !== undefined ? [] : contract.checkResponse(req.op, reply.status, reply.body ?? null);
      if (problems.length) report(`[mock api] ${req.method} ${req.op} → ${reply.status} breaks the contract:\n  ${problems.join('\n  ')}`);
    }
    if (reply.stream !== undefined)
      return new Response(reply.stream, { status: reply.status, headers: { 'Content-Type': 'text/event-stream', ...reply.headers } });
    if (reply.text !== undefined)
      return new Response(reply.text, { status: reply.status, headers: { 'Content-Type': 'audio/x-mpegurl', ...reply.headers } });
    if (reply.body === undefined) return new Response(null, { status: reply.status, headers: reply.headers });
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'Content-Type': 'application/json', ...reply.headers },
    });
  }

  const mocked = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    // Any origin: a page may point the widget at another host's API (the element's api attribute).
    if (!url.pathname.startsWith(`${API_PREFIX}/`)) return original(input, init);
    const method = (init.method ?? 'GET').toUpperCase();
    const found = contract.match(method, url.pathname);
    if (!found) {
      report(`[mock api] ${method} ${url.pathname} is not an operation of the contract`);
      return new Response(JSON.stringify({ name: 'not_found', message: 'No such route' }), { status: 404 });
    }
    const reqBody = typeof init.body === 'string' ? (JSON.parse(init.body) as Json) : null;
    const req: MockRequest = {
      op: found.op.key,
      method,
      url: url.href,
      path: url.pathname.slice(API_PREFIX.length),
      params: found.params,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: reqBody,
    };
    // A field the contract does not declare is dropped by the server's decoder (a warning: the
    // widget sends something nobody reads); anything else would be refused (an error).
    const { errors, unknown } = contract.checkRequest(req.op, reqBody);
    if (errors.length)
      report(`[mock api] the widget sent ${method} ${req.op} a body the contract does not accept:\n  ${errors.join('\n  ')}`);
    if (unknown.length)
      console.warn(`[mock api] the widget sent ${method} ${req.op} fields the contract does not declare: ${unknown.join(', ')}`);
    // A path or query value the server would refuse with a 400, or a query name it does not know.
    const params = contract.checkParameters(req.op, req.params, req.query);
    if (params.length) report(`[mock api] the widget sent ${method} ${req.op} parameters off the contract:\n  ${params.join('\n  ')}`);
    calls.push(req);
    // An aborted request (the widget's 30 s timeout) rejects like a real one.
    const signal = init.signal;
    const result = answer(req);
    if (!signal) return result;
    return Promise.race([
      result,
      new Promise<never>((_, reject) => {
        if (signal.aborted) reject(new DOMException('aborted', 'AbortError'));
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
      }),
    ]);
  };
  window.fetch = mocked;
  return {
    calls,
    set,
    uninstall: () => {
      if (window.fetch === mocked) window.fetch = original;
    },
  };
}

function notMocked(req: MockRequest): Reply {
  throw new Error(`[mock api] no default answer for ${req.op}; give the story one in parameters.api`);
}
