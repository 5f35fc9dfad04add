// A fake of the admin API for the screens' tests: a fetch that answers routes, enforces the session
// cookie and CSRF header as the server does (401 unauthorized without a session, 403
// invalid_csrf_token on a change without the token), and records every call. Every answer and
// every request body is checked against the served contract (api/httpapi/openapi3.json), with the
// widget's checker: a breach (an answer off the contract, a body or parameter the contract refuses
// or does not declare, a route it does not have) fails the test that caused it.
import openapi from '../../../../api/httpapi/openapi3.json';
import { loadContract } from '../../../src/test/api/contract';
import type { Role } from '../schemas';
import { API_BASE } from '../api';

const contract = loadContract(openapi);

/** Contract breaches in the running test. */
const breaches: string[] = [];

/** The breaches since the last call, cleared. */
export function takeBreaches(): string[] {
  return breaches.splice(0);
}

/** The status the operation answers with when it succeeds (201 for a creation), as the server. */
function successStatus(key: string): number {
  return [...(contract.operations.get(key)?.responses.keys() ?? [])].find((s) => s >= 200 && s < 300) ?? 200;
}

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

export type Reply = { status: number; body?: unknown };
// A handler answers with a Reply, or with just the body of the operation's success status.
type Handler = (call: Call, params: string[]) => unknown;
interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  offContract: boolean;
}

export const CSRF = 'csrf-123';

export const order = (over: Record<string, unknown> = {}) => ({
  id: 'ord_1',
  kind: 'plan',
  status: 'active',
  email: 'buyer@example.com',
  customerId: 'usr_1',
  total: { amount: 1299, currency: 'EUR' },
  gateway: 'sandbox',
  invoiceId: 'inv_1',
  invoiceStatus: 'paid',
  promoCode: '',
  createdAt: '2026-11-20T10:00:00Z',
  paidAt: '2026-11-20T10:01:00Z',
  product: 'Basic',
  refunded: { amount: 0, currency: 'EUR' },
  net: { amount: 1299, currency: 'EUR' },
  ...over,
});

/** orderDetail is GET /admin/orders/{id}'s answer for o: one plan item of its total, no hold. */
export const orderDetail = (o: ReturnType<typeof order> = order(), over: Record<string, unknown> = {}) => ({
  order: o,
  kind: o.kind,
  items: [
    { kind: 'plan', description: 'Basic — Monthly', args: ['plan', 'Basic', 'monthly'], quantity: 1, unitAmount: o.total, amount: o.total },
  ],
  refunded: o.refunded,
  net: o.net,
  lines: [line()],
  timeline: [],
  ...over,
});

export const line = (over: Record<string, unknown> = {}) => ({
  serviceId: 'svc_1',
  orderId: 'ord_1',
  pid: 1,
  name: 'Basic',
  status: 'Active',
  username: 'user1',
  password: 'pw1',
  expiresAt: '2026-12-20T10:00:00Z',
  nextDueDate: '2026-12-20',
  ...over,
});

export const job = (over: Record<string, unknown> = {}) => ({
  id: 7,
  kind: 'provision',
  ref: 'ord_1',
  state: 'dead',
  attempts: 5,
  runAt: '2026-11-20T10:00:00Z',
  lastError: 'panel: connection refused',
  updatedAt: '2026-11-20T11:00:00Z',
  ...over,
});

export const errorBody = (name: string, message = name) => ({ name, id: 'e1', message, temporary: false, timeout: false, fault: false });

export const summary = (over: Record<string, unknown> = {}) => ({
  from: '2026-11-17T00:00:00Z',
  orders: 12,
  paidRevenue: [{ amount: 15588, currency: 'EUR' }],
  refundedRevenue: [{ amount: 1299, currency: 'EUR' }],
  netRevenue: [{ amount: 14289, currency: 'EUR' }],
  newCustomers: 9,
  failedPayments: 1,
  activeLines: 30,
  renewalsDue7d: 4,
  heldOrders: 2,
  failedJobs: 0,
  deadJobs: 1,
  failedMails: 0,
  storedMails: 3,
  moneyToReview: 0,
  paidNotActive: 0,
  mrr: { amount: 239866, currency: 'EUR' },
  activeSubscriptions: 184,
  churn30d: 0.0432,
  renewalsDue: {
    days7: { count: 4, amount: { amount: 5196, currency: 'EUR' } },
    days30: { count: 61, amount: { amount: 102339, currency: 'EUR' } },
  },
  failedRenewals: 2,
  refunds: { count: 1, amount: { amount: 1299, currency: 'EUR' } },
  series: [
    {
      date: '2026-11-21',
      orders: 3,
      paidRevenue: [{ amount: 3897, currency: 'EUR' }],
      refunded: [{ amount: 1299, currency: 'EUR' }],
      netRevenue: [{ amount: 2598, currency: 'EUR' }],
    },
    { date: '2026-11-22', orders: 0, paidRevenue: [], refunded: [], netRevenue: [] },
    {
      date: '2026-11-23',
      orders: 9,
      paidRevenue: [{ amount: 11691, currency: 'EUR' }],
      refunded: [],
      netRevenue: [{ amount: 11691, currency: 'EUR' }],
    },
  ],
  ...over,
});

export class FakeApi {
  calls: Call[] = [];
  signedIn: { operator: string; role: Role } | null;
  /** billing is who bills the lines (GET /admin/session): whmcs leaves out extend and change. */
  billing: 'builtin' | 'whmcs' = 'builtin';
  private routes: Route[] = [];

  constructor(role: Role | null = 'owner') {
    this.signedIn = role ? { operator: 'me@example.com', role } : null;
    this.on('GET', '/session', () => this.sessionBody());
    // The layout's low-credit banner asks on every screen: plenty of credits unless a test says otherwise.
    this.on('GET', '/panel/credits', () => ({ known: true, balance: 1000, alert: 10, low: false, unavailable: [] }));
    this.on('POST', '/session', (c) => {
      const b = c.body as { email: string; password: string; otp: string };
      if (b.password !== 'correct horse battery' || b.otp !== '123456') return { status: 401, body: errorBody('invalid_credentials') };
      this.signedIn = { operator: b.email, role: 'owner' };
      return { status: 201, body: this.sessionBody() };
    });
    this.on('DELETE', '/session', () => {
      this.signedIn = null;
      return { status: 204 };
    });
  }

  private sessionBody() {
    return { ...this.signedIn!, csrfToken: CSRF, expiresAt: '2026-11-23T22:00:00Z', billing: this.billing };
  }

  /**
   * on answers METHOD path (":x" segments are parameters) with handler's body (the operation's
   * success status) or its Reply. The route must be an operation of the contract; the answers are
   * checked against it unless `offContract` says the test breaks the contract on purpose.
   */
  on(method: string, path: string, handler: Handler, options?: { offContract?: boolean }): this {
    if (!contract.match(method, API_BASE + path.replace(/:[a-z]+/g, 'x')))
      throw new Error(`FakeApi.on: ${method} ${path} is not an operation of the contract`);
    const pattern = new RegExp(`^${path.replace(/:[a-z]+/g, '([^/]+)')}$`);
    this.routes.unshift({ method, pattern, handler, offContract: !!options?.offContract });
    return this;
  }

  calledWith(method: string, path: string): Call[] {
    return this.calls.filter((c) => c.method === method && c.path === path);
  }

  fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://shop.test');
    const path = url.pathname.slice(API_BASE.length);
    const method = init.method ?? 'GET';
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const call: Call = { method, path, query: url.searchParams, headers, body: init.body ? JSON.parse(String(init.body)) : undefined };
    this.calls.push(call);
    const json = (status: number, body?: unknown) =>
      new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    const found = url.pathname.startsWith(`${API_BASE}/`) ? contract.match(method, url.pathname) : null;
    if (!found) {
      breaches.push(`${method} ${url.pathname} is not an operation of the contract`);
      return json(404, errorBody('not_found', `no route ${method} ${path}`));
    }
    const op = found.op.key;
    // The console's own API: a field the contract does not declare is dropped by the server's
    // decoder, so what the operator asked for would silently not happen.
    const params = contract.checkParameters(op, found.params, url.searchParams);
    if (params.length) breaches.push(`the console sent ${method} ${op} parameters the contract refuses:\n  ${params.join('\n  ')}`);
    const { errors, unknown } = contract.checkRequest(op, call.body);
    if (errors.length) breaches.push(`the console sent ${method} ${op} a body the contract refuses:\n  ${errors.join('\n  ')}`);
    if (unknown.length) breaches.push(`the console sent ${method} ${op} fields the contract does not declare: ${unknown.join(', ')}`);
    const answer = (r: Reply, offContract = false) => {
      const problems = offContract ? [] : contract.checkResponse(op, r.status, r.body);
      if (problems.length) breaches.push(`${method} ${op} → ${r.status} breaks the contract:\n  ${problems.join('\n  ')}`);
      return json(r.status, r.body);
    };
    const open = method === 'POST' && ['/session', '/setup', '/setup/confirm'].includes(path);
    if (!open && !this.signedIn) return answer({ status: 401, body: errorBody('unauthorized') });
    if (!open && method !== 'GET' && headers['x-csrf-token'] !== CSRF)
      return answer({ status: 403, body: errorBody('invalid_csrf_token') });
    for (const route of this.routes) {
      const match = route.method === method ? route.pattern.exec(path) : null;
      if (!match) continue;
      const out = route.handler(call, match.slice(1).map(decodeURIComponent));
      const isReply = out && typeof out === 'object' && 'status' in out && typeof (out as Reply).status === 'number';
      return answer(isReply ? (out as Reply) : { status: successStatus(op), body: out }, route.offContract);
    }
    return answer({ status: 404, body: errorBody('not_found', `no route ${method} ${path}`) });
  };
}

/** subscription is one row of GET /admin/services. */
export const subscription = (over: Record<string, unknown> = {}) => ({
  serviceId: 'svc_1',
  customer: { id: 'usr_1', email: 'buyer@example.com' },
  pid: 2,
  plan: 'Standard',
  billingCycle: 'monthly',
  maxConnections: 1,
  status: 'Active',
  nextDueDate: '2026-12-20',
  overdueDays: 0,
  autoRenew: true,
  renewsWithCard: false,
  renewalInvoiceId: null,
  renewalCardCharge: null,
  recurringAmount: { amount: 1299, currency: 'EUR' },
  username: 'user1',
  macAddress: '00:1A:79:AA:BB:CC',
  ...over,
});

/** fault is the answer of a call that failed inside the shop (500 fault), for the error states. */
export const fault = (): Reply => ({
  status: 500,
  body: { ...errorBody('fault', 'internal error, logged with id e1'), fault: true },
});

/** customer is one row of GET /admin/customers. */
export const customer = (over: Record<string, unknown> = {}) => ({
  id: 'usr_1',
  email: 'buyer@example.com',
  createdAt: '2026-11-20T10:00:00Z',
  orders: 1,
  activeLines: 1,
  ...over,
});

/** customerDetail is GET /admin/customers/{id}'s answer: one order, its line, one session. */
export const customerDetail = (over: Record<string, unknown> = {}) => ({
  customer: customer(),
  orders: [order()],
  services: [line()],
  sessions: [{ id: 'ses_1', scope: 'proven', createdAt: '2026-11-20T10:00:00Z', expiresAt: '2026-12-20T10:00:00Z' }],
  ...over,
});

/** payment is one row of GET /admin/payments: money that arrived short. */
export const payment = (over: Record<string, unknown> = {}) => ({
  id: 'pay_1',
  orderId: 'ord_1',
  provider: 'stripe',
  transactionId: 'stripe:cs_1',
  amount: 1000,
  currency: 'EUR',
  expected: { amount: 1299, currency: 'EUR' },
  reason: 'short',
  state: 'review',
  refundable: true,
  refundId: '',
  reference: '',
  refundError: '',
  decidedBy: '',
  createdAt: '2026-11-20T10:00:00Z',
  ...over,
});

/** webhook is one row of GET /admin/webhooks. */
export const webhook = (over: Record<string, unknown> = {}) => ({
  id: 4,
  provider: 'stripe',
  eventId: 'evt_1',
  receivedAt: '2026-11-20T10:01:00Z',
  processedAt: '2026-11-20T10:01:01Z',
  outcome: 'ok',
  detail: 'checkout.session.completed for ord_1',
  body: '{"id":"evt_1","type":"checkout.session.completed"}',
  ...over,
});

/** mail is one row of GET /admin/mail. */
export const mail = (over: Record<string, unknown> = {}) => ({
  id: 9,
  to: 'buyer@example.com',
  subject: 'Your line is ready',
  status: 'sent',
  attempts: 1,
  lastError: '',
  createdAt: '2026-11-20T10:00:00Z',
  sentAt: '2026-11-20T10:00:05Z',
  ...over,
});

/** promotion is one row of GET /admin/promotions. */
export const promotion = (over: Record<string, unknown> = {}) => ({
  code: 'WELCOME10',
  type: 'Percentage',
  value: '10',
  appliesTo: [2],
  startDate: '',
  expirationDate: '',
  maxUses: 100,
  recurring: false,
  disabled: false,
  uses: 7,
  products: ['Standard'],
  status: 'active',
  ...over,
});

/** auditEntry is one row of GET /admin/audit. */
export const auditEntry = (over: Record<string, unknown> = {}) => ({
  id: 7,
  at: '2026-11-26T10:00:00Z',
  operator: 'me@example.com',
  customerId: '',
  action: 'order-refund',
  target: 'order:ord_1',
  result: 'ok',
  detail: '12.99 EUR by sandbox: asked by phone',
  ip: '', // only console sign-ins keep an address
  args: ['refund', '1299', 'EUR', 'sandbox', 'asked by phone', ''],
  ...over,
});

/** operator is one row of GET /admin/operators. */
export const operator = (over: Record<string, unknown> = {}) => ({
  email: 'me@example.com',
  role: 'owner',
  status: 'active',
  createdAt: '2026-11-20T10:00:00Z',
  disabledAt: '',
  ...over,
});

/** drift is one row of GET /admin/line-drift. */
export const drift = (over: Record<string, unknown> = {}) => ({
  id: 9,
  at: '2026-11-27T10:15:00Z',
  runId: 'run_1',
  serviceId: 'svc_1',
  username: 'sc12345678',
  kind: 'missing',
  want: 'line sc12345678',
  found: 'none',
  action: 'recreated',
  error: '',
  ...over,
});

/** CATALOG_YAML is a small catalog in force: two plans, their monthly prices, one promotion. */
export const CATALOG_YAML = [
  'defaultCurrency: EUR',
  'products:',
  '  - pid: 2',
  '    name: Standard',
  '    cycles:',
  '      monthly:      {EUR: "12.99", GBP: "10.99"}',
  '  - pid: 3',
  '    name: Premium',
  '    cycles:',
  '      monthly:      {EUR: "15.99"}',
  'promotions:',
  '  - code: WELCOME10',
  '    appliesTo: [2]',
  '',
].join('\n');

/** catalogForm is CATALOG_YAML as the catalog editor's form: plans, extras, promotions (one expired), storefronts. */
export const catalogForm = () => ({
  defaultCurrency: 'EUR',
  currencies: ['EUR', 'USD', 'GBP'],
  cycles: ['monthly', 'quarterly', 'semiannually', 'annually', 'biennially', 'triennially', 'onetime'],
  plans: [
    {
      pid: 2,
      group: 'plan',
      name: 'Standard',
      trial: false,
      extras: true,
      proxy: true,
      prices: { monthly: { EUR: '12.99', GBP: '10.99' }, annually: { EUR: '119.99' } },
    },
    { pid: 3, group: 'plan', name: 'Premium', trial: false, extras: true, proxy: true, prices: { monthly: { EUR: '15.99' } } },
  ],
  extras: { id: 2, name: 'Extra connections', maxQty: 4, prices: { monthly: { EUR: '3.00' } } },
  promotions: [
    promotionForm({
      code: 'SUMMER2020',
      value: '20',
      appliesTo: [2, 3],
      products: ['Standard', 'Premium'],
      startDate: '2020-06-01',
      expirationDate: '2020-08-31',
      status: 'expired',
    }),
    promotionForm(),
  ],
  storefronts: [
    { key: 'pk_test_default', name: 'Streamcart demo', default: true, defaultCurrency: '', defaultLocale: '', allowedOrigins: [] },
  ],
});

function promotionForm(over: Record<string, unknown> = {}) {
  const { uses: _uses, ...p } = promotion(over);
  return { ...p, maxUses: 0 };
}

/** catalogVersion is one version of the catalog, published by an owner (version 0: the file the shop started with). */
export const catalogVersion = (n: number, comment = '') => ({
  version: n,
  operator: n ? 'owner@example.com' : '',
  comment,
  sha256: (n % 2 ? 'cd' : 'ab').repeat(32),
  createdAt: '2026-11-20T10:00:00Z',
});
