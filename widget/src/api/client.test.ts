import { describe, expect, it, vi } from 'vitest';
import { ApiError, createClient } from './client';
import { createOrder, geo, getOrder, playlist } from './orders';

function client(fetchImpl: (url: string, init: RequestInit) => Promise<Response>, extra = {}) {
  const f = vi.fn(fetchImpl);
  return { f, c: createClient({ base: 'https://shop.example/checkout/api', fetch: f as unknown as typeof fetch, ...extra }) };
}

const ok = (body: unknown, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status }));

describe('API client', () => {
  it('sends the Bearer token, the store key and JSON', async () => {
    const { f, c } = client(() => ok({ orderId: 'o1', status: 'pending', total: { amount: 1, currency: 'EUR' } }, 201), {
      store: 'pk_1',
      token: () => 'tok',
      language: () => 'de-de',
    });
    const order = await createOrder(
      c,
      { pid: 2, billingCycle: 'monthly', currency: 'EUR', extraConnections: 0, proxyProtection: false, gateway: 'sandbox' },
      'key-1',
    );
    expect(order).toMatchObject({ orderId: 'o1', invoiceId: '', serviceIds: [], fraud: false, paymentUrl: '' });
    const [url, init] = f.mock.calls[0]!;
    expect(url).toBe('https://shop.example/checkout/api/orders');
    const h = init.headers as Record<string, string>;
    expect(h.Authorization).toBe('Bearer tok');
    expect(h['Streamcart-Store']).toBe('pk_1');
    expect(h['Idempotency-Key']).toBe('key-1');
    expect(h['Content-Type']).toBe('application/json');
    expect(h['Accept-Language']).toBe('de-de');
    expect(init.credentials).toBe('omit');
  });

  it('refuses an authenticated call without a token, without calling the API', async () => {
    const { f, c } = client(() => ok({}));
    await expect(getOrder(c, 'o1')).rejects.toMatchObject({ code: 'unauthorized' });
    expect(f).not.toHaveBeenCalled();
  });

  it('maps error bodies to their stable names and keeps the fresh quote of price_changed', async () => {
    const quote = { lines: [], subtotal: { amount: 1, currency: 'EUR' }, discount: null, total: { amount: 1, currency: 'EUR' } };
    const { c } = client(
      () => ok({ name: 'price_changed', message: 'changed', id: 'x', temporary: false, timeout: false, fault: false, quote }, 409),
      {
        token: () => 't',
      },
    );
    const err = await createOrder(
      c,
      { pid: 1, billingCycle: 'monthly', currency: 'EUR', extraConnections: 0, proxyProtection: false, gateway: 'x' },
      'k',
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'price_changed', status: 409, message: 'changed', quote });
  });

  it('falls back to the status when an error body is not an API error', async () => {
    const { c } = client(() => Promise.resolve(new Response('<h1>Bad gateway</h1>', { status: 502 })));
    await expect(c.currencies()).rejects.toMatchObject({ code: 'internal', status: 502 });
  });

  it('calls a response that does not match its schema malformed', async () => {
    const { c } = client(() => ok({ currencies: [{ code: 'EUR' }], default: 'EUR' }));
    await expect(c.currencies()).rejects.toMatchObject({ code: 'malformed' });
    const { c: c2 } = client(() => Promise.resolve(new Response('not json', { status: 200 })));
    await expect(c2.gateways()).rejects.toMatchObject({ code: 'malformed' });
    const { c: c3 } = client(() => ok({ orderId: 'o', status: 'teleported', total: { amount: 1, currency: 'EUR' } }));
    await expect(getOrder(c3, 'o').catch((e: unknown) => e)).resolves.toBeInstanceOf(ApiError);
  });

  it('keeps unknown billing cycles out instead of failing the catalog', async () => {
    const { c } = client(() =>
      ok({ pid: 1, name: 'P', cycles: ['monthly', 'fortnightly'], pricing: { monthly: { amount: 100, currency: 'EUR' } } }),
    );
    const p = await c.product(1, 'EUR');
    expect(p.cycles).toEqual(['monthly']);
    expect(p.configOptions).toEqual([]);
  });

  it('gives up after the timeout with a "timeout" error', async () => {
    vi.useFakeTimers();
    try {
      const { c } = client(
        (_url, init) =>
          new Promise((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      );
      const p = geo(c).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(30_000);
      expect(await p).toMatchObject({ code: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports a network failure as "network"', async () => {
    const { c } = client(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(c.storefront()).rejects.toMatchObject({ code: 'network' });
  });

  it('downloads the playlist with the token and checks it is an M3U', async () => {
    const { f, c } = client(() => Promise.resolve(new Response('#EXTM3U\n', { status: 200 })), { token: () => 'tok' });
    const blob = await playlist(c, 's 1');
    expect(await blob.text()).toBe('#EXTM3U\n');
    expect(f.mock.calls[0]![0]).toBe('https://shop.example/checkout/api/services/s%201/playlist.m3u');
    const { c: bad } = client(() => Promise.resolve(new Response('<html>', { status: 200 })), { token: () => 'tok' });
    await expect(playlist(bad, 's')).rejects.toMatchObject({ code: 'malformed' });
  });

  it('resolves payment links against the API origin', () => {
    const { c } = client(() => ok({}));
    expect(c.resolve('/checkout/api/payments/sandbox/i-1')).toBe('https://shop.example/checkout/api/payments/sandbox/i-1');
    expect(c.resolve('https://pay.example/x')).toBe('https://pay.example/x');
  });
});
