// The admin API client (/checkout/api/admin). The session is the HttpOnly streamcart_admin cookie,
// which the browser sends by itself; the CSRF token from sign-in or GET /admin/session is held
// here, in memory only, and sent as X-CSRF-Token on every change. Every answer is parsed with its
// schema; failures become ApiError with the contract's stable error name.
import * as v from 'valibot';
import * as s from './schemas';

export const API_BASE = '/checkout/api/admin';

/** An API failure: code is the contract's error name (a message key), or network / malformed. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** invalid_catalog: each problem with its line and field path. */
  readonly problems: { line: number; path: string; message: string }[];

  constructor(code: string, status: number, message: string, problems: ApiError['problems'] = []) {
    super(message || code);
    this.code = code;
    this.status = status;
    this.problems = problems;
  }
}

export type Query = Record<string, string | number | undefined>;

interface CallOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
}

/** query builds ?a=1&b=2 from the non-empty values. */
export function query(q: Query = {}): string {
  const p = new URLSearchParams();
  for (const [k, val] of Object.entries(q)) {
    if (val !== undefined && val !== '') p.set(k, String(val));
  }
  const text = p.toString();
  return text ? `?${text}` : '';
}

/** ChangeBody is a change of a line's terms; absent fields keep the line's. */
export interface ChangeBody {
  pid?: number;
  billingCycle?: string;
  maxConnections?: number;
  nextDueDate?: string;
  charge: s.Charge;
  reason: string;
  preview?: boolean;
}

export interface ApiOptions {
  fetch?: typeof fetch;
  /** Called on any 401 unauthorized of a signed-in call: the session ended. */
  onUnauthorized?: () => void;
}

export function createApi(opts: ApiOptions = {}) {
  let csrf = '';
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function call<T extends v.GenericSchema | null>(
    method: string,
    path: string,
    schema: T,
    { query: q, body, headers: extra }: CallOptions = {},
  ): Promise<T extends v.GenericSchema ? v.InferOutput<T> : void> {
    const headers: Record<string, string> = { Accept: 'application/json', ...extra };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method !== 'GET' && csrf) headers['X-CSRF-Token'] = csrf;
    let res: Response;
    try {
      res = await doFetch(API_BASE + path + query(q), {
        method,
        headers,
        credentials: 'same-origin',
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new ApiError('network', 0, e instanceof Error ? e.message : String(e));
    }
    const text = await res.text();
    let json: unknown = null;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        throw new ApiError('malformed', res.status, 'not JSON');
      }
    }
    if (!res.ok) {
      const err = v.safeParse(s.ErrorBodySchema, json);
      const e = err.success
        ? new ApiError(err.output.name, res.status, err.output.message, err.output.problems)
        : new ApiError(`http_${res.status}`, res.status, text.slice(0, 200));
      if (res.status === 401 && e.code === 'unauthorized') {
        csrf = '';
        opts.onUnauthorized?.();
      }
      throw e;
    }
    if (schema === null) return undefined as never;
    const parsed = v.safeParse(schema, json);
    if (!parsed.success) throw new ApiError('malformed', res.status, v.summarize(parsed.issues));
    return parsed.output as never;
  }

  const enc = encodeURIComponent;

  return {
    setCsrf(token: string) {
      csrf = token;
    },
    csrf: () => csrf,
    session: {
      async get() {
        const r = await call('GET', '/session', s.SessionSchema);
        csrf = r.csrfToken;
        return r;
      },
      async create(body: { email: string; password: string; otp: string }) {
        const r = await call('POST', '/session', s.SessionSchema, { body });
        csrf = r.csrfToken;
        return r;
      },
      async delete() {
        await call('DELETE', '/session', null);
        csrf = '';
      },
      setup: (body: { token: string; password: string }) => call('POST', '/setup', s.SetupSchema, { body }),
      confirm: (body: { token: string; otp: string }) => call('POST', '/setup/confirm', null, { body }),
    },
    summary: (days: number) => call('GET', '/summary', s.SummarySchema, { query: { days } }),
    orders: {
      list: (q: Query) => call('GET', '/orders', s.OrderListSchema, { query: q }),
      get: (id: string) => call('GET', `/orders/${enc(id)}`, s.OrderDetailSchema),
      refunds: (id: string) => call('GET', `/orders/${enc(id)}/refunds`, s.RefundsSchema),
      approve: (id: string, mode: ApproveMode) => call('POST', `/orders/${enc(id)}/approve`, s.OrderSchema, { body: { mode } }),
      reject: (id: string, reason: string) => call('POST', `/orders/${enc(id)}/reject`, s.RejectResultSchema, { body: { reason } }),
      /** refund sends the dialog's idempotency key: the same key again refunds nothing more. */
      refund: (id: string, body: { amount?: number; reason: string; keepLine?: boolean }, idempotencyKey: string) =>
        call('POST', `/orders/${enc(id)}/refund`, s.RefundResultSchema, { body, headers: { 'Idempotency-Key': idempotencyKey } }),
    },
    jobs: {
      list: (q: Query) => call('GET', '/jobs', s.JobListSchema, { query: q }),
      retry: (id: number) => call('POST', `/jobs/${id}/retry`, s.JobSchema),
      cancel: (id: number) => call('POST', `/jobs/${id}/cancel`, s.JobSchema),
    },
    customers: {
      list: (q: Query) => call('GET', '/customers', s.CustomerListSchema, { query: q }),
      get: (id: string) => call('GET', `/customers/${enc(id)}`, s.CustomerDetailSchema),
      signout: (id: string) => call('POST', `/customers/${enc(id)}/signout`, s.SignoutSchema),
      signinLink: (id: string) => call('POST', `/customers/${enc(id)}/signin-link`, s.SigninLinkSchema),
    },
    services: {
      list: (q: Query) => call('GET', '/services', s.SubscriptionListSchema, { query: q }),
      /** csvHref is the CSV export of the filtered list: a link the browser downloads with the session cookie. */
      csvHref: (q: Query) => `${API_BASE}/services.csv${query(q)}`,
      cancel: (id: string) => call('POST', `/services/${enc(id)}/cancel`, s.SubscriptionSchema),
      resume: (id: string) => call('POST', `/services/${enc(id)}/resume`, s.SubscriptionSchema),
      renewalLink: (id: string) => call('POST', `/services/${enc(id)}/renewal-link`, s.RenewalLinkSchema),
      act: (id: string, action: 'suspend' | 'unsuspend' | 'terminate') => call('POST', `/services/${enc(id)}/${action}`, s.LineSchema),
      extend: (id: string, days: number) => call('POST', `/services/${enc(id)}/extend`, s.LineSchema, { body: { days } }),
      /** change changes a line's terms (preview: says what it would do); key makes it once (Idempotency-Key). */
      change: (id: string, body: ChangeBody, key?: string) =>
        call('POST', `/services/${enc(id)}/change`, s.LineChangeSchema, { body, headers: key ? { 'Idempotency-Key': key } : {} }),
    },
    settings: {
      list: () => call('GET', '/settings', s.SettingListSchema),
    },
    mail: {
      list: (q: Query) => call('GET', '/mail', s.MailListSchema, { query: q }),
      resend: (id: number) => call('POST', `/mail/${id}/resend`, s.MailSchema),
    },
    payments: {
      list: (state: string) => call('GET', '/payments', s.PaymentListSchema, { query: { state, limit: 200 } }),
      refund: (id: string, reference?: string) =>
        call('POST', `/payments/${enc(id)}/refund`, s.PaymentSchema, { body: reference ? { reference } : {} }),
      accept: (id: string) => call('POST', `/payments/${enc(id)}/accept`, s.AcceptResultSchema),
    },
    webhooks: (q: Query) => call('GET', '/webhooks', s.WebhookListSchema, { query: q }),
    catalog: {
      get: () => call('GET', '/catalog', s.CatalogSchema),
      put: (body: { source: string; comment?: string; base?: string }) => call('PUT', '/catalog', s.CatalogSchema, { body }),
      check: (source: string) => call('POST', '/catalog/check', s.CatalogCheckSchema, { body: { source } }),
      draft: (body: { source?: string; form?: s.CatalogForm }) => call('POST', '/catalog/draft', s.CatalogDraftSchema, { body }),
      versions: () => call('GET', '/catalog/versions', s.CatalogVersionsSchema),
      version: (n: number) => call('GET', `/catalog/versions/${n}`, s.CatalogSchema),
    },
    promotions: {
      list: () => call('GET', '/promotions', s.PromotionListSchema),
      create: (body: PromotionInput) => call('POST', '/promotions', s.PromotionSchema, { body }),
      update: (code: string, body: PromotionPatch) => call('PATCH', `/promotions/${enc(code)}`, s.PromotionSchema, { body }),
    },
    audit: (q: Query) => call('GET', '/audit', s.AuditListSchema, { query: q }),
    panel: {
      drift: (q: Query) => call('GET', '/line-drift', s.LineDriftListSchema, { query: q }),
      credits: () => call('GET', '/panel/credits', s.PanelCreditsSchema),
    },
    operators: {
      list: () => call('GET', '/operators', s.OperatorListSchema),
      invite: (body: { email: string; role: s.Role }) => call('POST', '/operators', s.InviteSchema, { body }),
      disable: (email: string) => call('POST', `/operators/${enc(email)}/disable`, s.OperatorSchema),
    },
  };
}

/** How a held order is released: its buyer asked to pay (support, owner), or provisioned unpaid (owner). */
export type ApproveMode = 'request-payment' | 'provision';

export interface PromotionInput {
  code: string;
  type: string;
  value: string;
  appliesTo?: number[];
  startDate?: string;
  expirationDate?: string;
  maxUses?: number;
  recurring?: boolean;
}

export interface PromotionPatch {
  disabled?: boolean;
  startDate?: string;
  expirationDate?: string;
  maxUses?: number;
}

export type Api = ReturnType<typeof createApi>;
