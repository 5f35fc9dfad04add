// The order's live status: GET /orders/{id}/events (Server-Sent Events), read with fetch so the
// session's token travels in the Authorization header as on every other call (EventSource cannot
// send headers, and a token in the URL would end up in logs). Each event "status" carries the
// order as GET /orders/{id} answers it. A stream that drops (its replica stopped, it sat idle) is
// opened again with Last-Event-ID; a stream refused or failing falls back to polling GET
// /orders/{id} every timing.pollMs. Only the waiting page and the services view load this file.
import * as v from 'valibot';
import { ApiError, isApiError, type Client } from '../api/client';
import { getOrder, OrderSchema, type Order } from '../api/orders';
import { timing } from './timing';

/** Mutable so tests can shorten it instead of waiting. */
export const streamTiming = {
  /** No byte for this long (three missed heartbeats): the connection is taken for dead and opened again. */
  silenceMs: 45_000,
  /** Streams that end in a row without an event before polling takes over. */
  reopens: 3,
};

export interface OrderHandlers {
  /** Each state of the order as it comes; true ends the watch (the screen is done with it). */
  order(o: Order): boolean;
  /** A failed read; true ends the watch (a failure more reads will not change), else reading goes on. */
  error(e: unknown): boolean;
}

/** One SSE event: its fields as the stream spelled them. */
interface SseEvent {
  id: string;
  event: string;
  data: string;
}

/** Splits a text/event-stream into events (comments, such as heartbeats, are skipped). */
export function sseParser(emit: (e: SseEvent) => void) {
  let buf = '';
  let cur: SseEvent = { id: '', event: '', data: '' };
  let data: string[] = [];
  return (chunk: string) => {
    buf += chunk;
    let nl: number;
    while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + (buf.startsWith('\r\n', nl) ? 2 : 1));
      if (line === '') {
        if (data.length) emit({ ...cur, event: cur.event || 'message', data: data.join('\n') });
        cur = { id: cur.id, event: '', data: '' };
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
      if (field === 'id') cur.id = value;
      else if (field === 'event') cur.event = value;
      else if (field === 'data') data.push(value);
    }
  };
}

/**
 * Follows the order until a handler says it is done: from its stream, else by polling. Returns
 * the function that stops it (on unmount).
 */
export function watchOrder(c: Client, orderId: string, h: OrderHandlers): () => void {
  let live = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let lastId = '';
  let reopens = 0;
  const stop = () => {
    live = false;
    clearTimeout(timer);
    void reader?.cancel().catch(() => undefined);
  };

  const poll = async () => {
    try {
      const o = await getOrder(c, orderId);
      if (!live || h.order(o)) return stop();
    } catch (e) {
      if (!live || h.error(e)) return stop();
    }
    timer = setTimeout(() => void poll(), timing.pollMs);
  };

  const stream = async () => {
    let res: Response;
    try {
      res = await c.send('GET', `/orders/${encodeURIComponent(orderId)}/events`, {
        auth: true,
        headers: { Accept: 'text/event-stream', ...(lastId ? { 'Last-Event-ID': lastId } : {}) },
      });
    } catch (e) {
      if (!live) return;
      // Not the buyer's, or signed out: polling would say the same.
      if (isApiError(e) && (e.code === 'not_found' || e.code === 'unauthorized') && h.error(e)) return stop();
      return poll(); // refused (429), a proxy in the way, an older server: poll instead
    }
    const body = res.body;
    if (!live || !body || !(res.headers.get('Content-Type') ?? '').startsWith('text/event-stream')) {
      void body?.cancel().catch(() => undefined);
      return live ? poll() : undefined;
    }
    reader = body.getReader();
    const decoder = new TextDecoder();
    let done = false;
    let silence: ReturnType<typeof setTimeout> | undefined;
    const quiet = () => {
      clearTimeout(silence);
      silence = setTimeout(() => void reader?.cancel().catch(() => undefined), streamTiming.silenceMs);
    };
    const feed = sseParser((e) => {
      if (done || e.event !== 'status') return;
      let parsed: Order;
      try {
        const r = v.safeParse(OrderSchema, JSON.parse(e.data));
        if (!r.success) throw new Error(r.issues[0]?.message ?? 'invalid');
        parsed = r.output;
      } catch (err) {
        done = h.error(new ApiError('malformed', 200, `GET /orders/${orderId}/events: ${err instanceof Error ? err.message : 'invalid'}`));
        return;
      }
      if (e.id) lastId = e.id;
      reopens = 0;
      done = h.order(parsed);
    });
    try {
      quiet();
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end || !live) break;
        quiet();
        feed(decoder.decode(value, { stream: true }));
        if (done) break;
      }
    } catch {
      // The connection broke (the replica stopped, the network dropped): opened again below.
    } finally {
      clearTimeout(silence);
    }
    if (done) return stop();
    if (!live) return;
    void reader.cancel().catch(() => undefined);
    // Ended before the order did (idle, shutdown, a replica gone): again from the last event,
    // through whichever replica answers; polling once streams keep ending without news.
    if (++reopens > streamTiming.reopens) return poll();
    timer = setTimeout(() => void stream(), timing.pollMs);
  };

  void stream();
  return stop;
}
