// A fake of the admin API for the screens' tests: a fetch that answers routes with bodies shaped as
// in api/httpapi/openapi3.json, enforces the session cookie and CSRF header as the server does
// (401 unauthorized without a session, 403 invalid_csrf_token on a change without the token), and
// records every call.
import type { Role } from '../schemas';

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: unknown;
}

export type Reply = { status: number; body?: unknown };
// A handler answers with a Reply, or with just the body of a 200.
type Handler = (call: Call, params: string[]) => unknown;

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
  newCustomers: 9,
  failedPayments: 1,
  activeLines: 30,
  renewalsDue7d: 4,
  heldOrders: 2,
  failedJobs: 0,
  deadJobs: 1,
  failedMails: 0,
  moneyToReview: 0,
  paidNotActive: 0,
  series: [
    { date: '2026-11-21', orders: 3, paidRevenue: [{ amount: 3897, currency: 'EUR' }] },
    { date: '2026-11-22', orders: 0, paidRevenue: [] },
    { date: '2026-11-23', orders: 9, paidRevenue: [{ amount: 11691, currency: 'EUR' }] },
  ],
  ...over,
});

export class FakeApi {
  calls: Call[] = [];
  signedIn: { operator: string; role: Role } | null;
  private routes: [string, RegExp, Handler][] = [];

  constructor(role: Role | null = 'owner') {
    this.signedIn = role ? { operator: 'me@example.com', role } : null;
    this.on('GET', '/session', () => this.sessionBody());
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
    return { ...this.signedIn!, csrfToken: CSRF, expiresAt: '2026-11-23T22:00:00Z' };
  }

  /** on answers METHOD path (":x" segments are parameters) with handler's body (200) or its Reply. */
  on(method: string, path: string, handler: Handler): this {
    const re = new RegExp(`^${path.replace(/:[a-z]+/g, '([^/]+)')}$`);
    this.routes.unshift([method, re, handler]);
    return this;
  }

  calledWith(method: string, path: string): Call[] {
    return this.calls.filter((c) => c.method === method && c.path === path);
  }

  fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://shop.test');
    const path = url.pathname.replace(/^\/checkout\/api\/admin/, '');
    const method = init.method ?? 'GET';
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const call: Call = { method, path, query: url.searchParams, headers, body: init.body ? JSON.parse(String(init.body)) : undefined };
    this.calls.push(call);
    const json = (status: number, body?: unknown) =>
      new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    const open = method === 'POST' && ['/session', '/setup', '/setup/confirm'].includes(path);
    if (!open && !this.signedIn) return json(401, errorBody('unauthorized'));
    if (!open && method !== 'GET' && headers['x-csrf-token'] !== CSRF) return json(403, errorBody('invalid_csrf_token'));
    for (const [m, re, handler] of this.routes) {
      const match = m === method ? re.exec(path) : null;
      if (!match) continue;
      const out = handler(call, match.slice(1).map(decodeURIComponent));
      if (out && typeof out === 'object' && 'status' in out && typeof (out as Reply).status === 'number') {
        const r = out as Reply;
        return json(r.status, r.body);
      }
      return json(200, out);
    }
    return json(404, errorBody('not_found', `no route ${method} ${path}`));
  };
}
