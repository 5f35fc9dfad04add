// The order's live status read from GET /orders/{id}/events through the contract-checked fake
// API, whose stream a test writes event by event (a mocked streaming fetch).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/dom';
import { installApi, type Api } from '../test/api/vitest';
import { body } from '../test/api/fixtures';
import { createClient } from '../api/client';
import { sseParser, streamTiming, watchOrder } from './orderWatch';
import type { Order } from '../api/orders';
import { timing } from './timing';

const ORDER = 'ord_storybook01';
const order = (name: string) => ({ ...body<Record<string, unknown>>('order.get', name), orderId: ORDER });

/** A stream the test writes: events as the server sends them, then an end or a broken connection. */
function sse() {
  let ctl!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (ctl = c),
    cancel: () => void (cancelled = true),
  });
  const enc = new TextEncoder();
  return {
    response: () => new Response(stream, { status: 200, headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' } }),
    status: (id: number, o: object) => ctl.enqueue(enc.encode(`id: ${id}\nevent: status\ndata: ${JSON.stringify(o)}\n\n`)),
    raw: (text: string) => ctl.enqueue(enc.encode(text)),
    end: () => ctl.close(),
    drop: () => ctl.error(new TypeError('network error')),
    get cancelled() {
      return cancelled;
    },
  };
}

function watch(api: Api, stopAt = (o: Order) => o.status === 'active') {
  const seen: Order[] = [];
  const errors: unknown[] = [];
  const c = createClient({ base: '/checkout/api', token: () => 'tok-1' });
  const stop = watchOrder(c, ORDER, {
    order: (o) => {
      seen.push(o);
      return stopAt(o);
    },
    error: (e) => {
      errors.push(e);
      return false;
    },
  });
  void api;
  return { seen, errors, stop, statuses: () => seen.map((o) => o.status) };
}

afterEach(() => {
  streamTiming.silenceMs = 45_000;
  streamTiming.reopens = 3;
});

describe('watchOrder', () => {
  it('follows the order on its stream, with the session header, and polls never', async () => {
    const api = installApi();
    const s = sse();
    api.on('order.events', () => s.response());
    const w = watch(api);
    await waitFor(() => expect(api.callsTo('order.events')).toHaveLength(1));
    const req = api.callsTo('order.events')[0]!;
    expect(req.headers.get('authorization')).toBe('Bearer tok-1');
    expect(req.headers.get('accept')).toBe('text/event-stream');
    expect(req.headers.get('last-event-id')).toBeNull();
    s.status(1, order('200.pending'));
    s.raw(': heartbeat\n\n');
    s.status(2, order('200.paid'));
    await waitFor(() => expect(w.statuses()).toEqual(['pending', 'paid']));
    s.status(4, order('200.active'));
    await waitFor(() => expect(w.statuses()).toEqual(['pending', 'paid', 'active']));
    // Done with the order: the stream is let go.
    await waitFor(() => expect(s.cancelled).toBe(true));
    expect(api.callsTo('order.get')).toHaveLength(0);
    expect(w.errors).toEqual([]);
  });

  it('falls back to polling when the stream is refused', async () => {
    timing.pollMs = 5;
    const api = installApi(); // order.events answers 429 rate_limited by default
    api.on('order.get', ['200.pending', '200.paid', '200.active']);
    const w = watch(api);
    await waitFor(() => expect(w.statuses()).toEqual(['pending', 'paid', 'active']));
    expect(api.callsTo('order.events')).toHaveLength(1);
    expect(api.callsTo('order.get')).toHaveLength(3);
  });

  it('falls back to polling when the stream cannot be reached', async () => {
    timing.pollMs = 5;
    const api = installApi({ 'order.events': 'network' });
    api.on('order.get', ['200.pending', '200.active']);
    const w = watch(api);
    await waitFor(() => expect(w.statuses()).toEqual(['pending', 'active']));
    expect(api.callsTo('order.get')).toHaveLength(2);
  });

  it('falls back to polling when the answer is not a stream (a proxy in the way)', async () => {
    timing.pollMs = 5;
    const api = installApi();
    api.on('order.events', () => new Response('<html>proxy</html>', { status: 200, headers: { 'Content-Type': 'text/html' } }), {
      offContract: true,
    });
    api.on('order.get', ['200.active']);
    const w = watch(api);
    await waitFor(() => expect(w.statuses()).toEqual(['active']));
  });

  it('resumes a dropped stream from the last event id, then polls once streams keep ending without news', async () => {
    timing.pollMs = 5;
    const api = installApi();
    const first = sse();
    const second = sse();
    const empty = [sse(), sse(), sse()];
    const streams = [first, second, ...empty];
    api.on('order.events', () => streams.shift()!.response());
    api.on('order.get', ['200.active']);
    const w = watch(api);
    await waitFor(() => expect(api.callsTo('order.events')).toHaveLength(1));
    first.status(7, order('200.pending'));
    await waitFor(() => expect(w.statuses()).toEqual(['pending']));
    first.drop(); // the replica holding it was killed
    await waitFor(() => expect(api.callsTo('order.events')).toHaveLength(2));
    expect(api.callsTo('order.events')[1]!.headers.get('last-event-id')).toBe('7');
    second.status(9, order('200.paid'));
    await waitFor(() => expect(w.statuses()).toEqual(['pending', 'paid']));
    second.end(); // closed without the final status (idle, shutdown)
    await waitFor(() => expect(api.callsTo('order.events')).toHaveLength(3));
    expect(api.callsTo('order.events')[2]!.headers.get('last-event-id')).toBe('9');
    // Streams that end at once, again and again: polling takes over after streamTiming.reopens.
    for (const s of empty) s.end();
    await waitFor(() => expect(w.statuses()).toEqual(['pending', 'paid', 'active']));
    // The second stream's end was the first of those reopens.
    expect(api.callsTo('order.events')).toHaveLength(2 + streamTiming.reopens);
    expect(api.callsTo('order.get')).toHaveLength(1);
  });

  it('opens the stream again when it falls silent (no heartbeat: the connection is dead)', async () => {
    timing.pollMs = 5;
    // Long enough that a busy machine delivers the first status before the stream counts as silent.
    streamTiming.silenceMs = 300;
    const api = installApi();
    const silent = sse();
    const next = sse();
    const streams = [silent, next];
    api.on('order.events', () => streams.shift()!.response());
    const w = watch(api);
    await waitFor(() => expect(api.callsTo('order.events')).toHaveLength(1));
    silent.status(3, order('200.pending'));
    await waitFor(() => expect(silent.cancelled).toBe(true));
    await waitFor(() => expect(api.callsTo('order.events')).toHaveLength(2));
    expect(api.callsTo('order.events')[1]!.headers.get('last-event-id')).toBe('3');
    next.status(5, order('200.active'));
    await waitFor(() => expect(w.statuses()).toEqual(['pending', 'active']));
  });

  it('stops at once when the order is not the session’s, as polling would', async () => {
    const api = installApi();
    api.on('order.events', '404');
    const c = createClient({ base: '/checkout/api', token: () => 'tok-1' });
    const error = vi.fn(() => true);
    watchOrder(c, ORDER, { order: () => true, error });
    await waitFor(() => expect(error).toHaveBeenCalledTimes(1));
    expect(error.mock.calls[0]).toMatchObject([{ code: 'not_found' }]);
    expect(api.callsTo('order.get')).toHaveLength(0);
  });

  it('stops reading when told to (the screen unmounts)', async () => {
    const api = installApi();
    const s = sse();
    api.on('order.events', () => s.response());
    const w = watch(api);
    await waitFor(() => expect(api.callsTo('order.events')).toHaveLength(1));
    s.status(1, order('200.pending'));
    await waitFor(() => expect(w.statuses()).toEqual(['pending']));
    w.stop();
    await waitFor(() => expect(s.cancelled).toBe(true));
  });
});

describe('sseParser', () => {
  it('splits events across chunks and line endings, joins data lines and skips comments', () => {
    const got: { id: string; event: string; data: string }[] = [];
    const feed = sseParser((e) => got.push(e));
    feed('retry: 2000\r\n\r\n: heartbeat\n\nid: 4\nevent: sta');
    feed('tus\ndata: {"a":\ndata: 1}\r\rid: 5\ndata: x\n');
    expect(got).toEqual([{ id: '4', event: 'status', data: '{"a":\n1}' }]);
    feed('\n');
    expect(got[1]).toEqual({ id: '5', event: 'message', data: 'x' });
  });
});
