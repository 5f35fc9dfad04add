// The Storybook mock (./mock.ts) as the widget's Vitest fake: the same fixtures, defaults and
// contract checks. A test changes an operation's answer with `on`; a contract breach (an answer, a
// request body, an unknown route) fails the test that caused it.
import { afterEach, expect, vi, type Mock } from 'vitest';
import { contract, defaultReply, installMockApi, type Answer, type ApiScenario, type MockApi, type MockRequest, type Reply } from './mock';

type Json = Record<string, unknown>;

/** A test's own answer: a Response, or the body of the operation's success status. */
export type Handler = (req: MockRequest) => Response | Json | Promise<Response | Json>;

export interface Api {
  /** Every request the widget made, in order. */
  calls: MockRequest[];
  /** The calls to an operation ("order.get") or to one path ("GET /orders/ord_1"). */
  callsTo(what: string): MockRequest[];
  /**
   * Answers `op` from now on with a fixture name ("200.paid"), a list of them answered in turn, or
   * a handler. Handlers' answers are contract-checked unless `offContract` says the test breaks the
   * contract on purpose (a malformed answer the widget must survive).
   */
  on(op: string, answer: Handler | string | string[], options?: { offContract?: boolean }): void;
  fetch: Mock<typeof fetch>;
}

export function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function apiError(status: number, name: string, message: string, extra: Json = {}): Response {
  return json(status, { name, message, id: 'x', temporary: false, timeout: false, fault: false, ...extra });
}

/** 409 price_changed as the API sends it: the fresh quote instead of an error's bookkeeping fields. */
export function priceChanged(message: string, quote: Json): Response {
  return json(409, { name: 'price_changed', message, quote });
}

/** What the mock answers `req` by default, for a handler that changes the request or the answer. */
export function byDefault(req: MockRequest): Response {
  const r = defaultReply(req);
  if (r.text !== undefined) return new Response(r.text, { status: r.status, headers: { 'Content-Type': 'audio/x-mpegurl' } });
  return json(r.status, r.body);
}

/** Contract breaches in the running test; checked after each test. */
const breaches: string[] = [];
const installed: MockApi[] = [];

afterEach(() => {
  for (const m of installed.splice(0)) m.uninstall();
  vi.unstubAllGlobals();
  expect(breaches.splice(0), 'the fake API answered or was asked off the contract').toEqual([]);
});

/** The status the operation answers with when it succeeds (201 for a creation), as the server. */
function successStatus(op: string): number {
  return [...(contract.operations.get(op)?.responses.keys() ?? [])].find((s) => s >= 200 && s < 300) ?? 200;
}

async function toReply(op: string, out: Response | Json, offContract: boolean): Promise<Reply> {
  if (!(out instanceof Response)) return { status: successStatus(op), body: out, offContract };
  // An event stream is passed on as it is written, never read to its end here.
  if ((out.headers.get('Content-Type') ?? '').startsWith('text/event-stream') && out.body)
    return { status: out.status, stream: out.body, offContract };
  const text = await out.text();
  if (!(out.headers.get('Content-Type') ?? '').includes('json')) return { status: out.status, text, offContract };
  return { status: out.status, body: text ? (JSON.parse(text) as unknown) : undefined, offContract };
}

/** Installs the mock as fetch for this test, with `scenario`'s answers over the defaults. */
export function installApi(scenario: ApiScenario = {}): Api {
  const mock = installMockApi(scenario, { report: (p) => breaches.push(p) });
  installed.push(mock);
  // A spy over the mock, for the tests that look at fetch itself.
  const spy = vi.fn(window.fetch);
  vi.stubGlobal('fetch', spy);
  return {
    calls: mock.calls,
    callsTo: (what) => mock.calls.filter((c) => (what.includes(' ') ? `${c.method} ${c.path}` === what : c.op === what)),
    on: (op, answer, options) => {
      const off = !!options?.offContract;
      const a: Answer = typeof answer === 'function' ? async (req) => toReply(op, await answer(req), off) : answer;
      mock.set(op, a);
    },
    fetch: spy,
  };
}
