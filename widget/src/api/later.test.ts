// The script-tag builds' variant of the later schemas (later.lazy.ts): the client sends the request at
// once and parses the answer with the schemas of dist/checkout.js once they are there.
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createClient } from './client';
import type { LaterSchemas } from './later';
import * as schemas from './schemas.later';

vi.mock('./later', () => import('./later.lazy'));
const { setLaterSchemasLoader } = await import('./later.lazy');

const ok = (body: unknown, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status }));

function client(fetchImpl: () => Promise<Response>) {
  const f = vi.fn(fetchImpl);
  return { f, c: createClient({ base: 'https://shop.example/checkout/api', fetch: f, token: () => 't' }) };
}

describe('later schemas from the checkout module', () => {
  it('sends the request before the module is there and parses the answer when it arrives', async () => {
    let arrive: ((s: LaterSchemas) => void) | undefined;
    setLaterSchemasLoader(() => new Promise((resolve) => (arrive = resolve)));
    const { f, c } = client(() => ok({ gateways: [{ module: 'sandbox', displayName: 'Sandbox', extra: 1 }], default: 'sandbox' }));
    const gateways = c.gateways('en');
    // The answer is in and waits for the module: the request did not wait for it.
    await vi.waitFor(() => expect(arrive).toBeDefined());
    expect(f).toHaveBeenCalledTimes(1);
    arrive!(schemas);
    await expect(gateways).resolves.toEqual({ gateways: [{ module: 'sandbox', displayName: 'Sandbox' }], default: 'sandbox' });
  });

  it('still checks the answer against the schema', async () => {
    setLaterSchemasLoader(() => Promise.resolve(schemas));
    const { c } = client(() => ok({ currencies: [{ code: 'EUR' }], default: 'EUR' }));
    await expect(c.currencies()).rejects.toMatchObject({ code: 'malformed' });
  });

  it('fails as a network error when the module cannot be loaded', async () => {
    setLaterSchemasLoader(() => Promise.reject(new Error('checkout.js: 404')));
    const { c } = client(() => ok({ currencies: [], default: 'EUR' }));
    const err = await c.currencies().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'network', message: 'checkout.js: 404' });
  });

  it('keeps an error answer when the module cannot parse its quote', async () => {
    setLaterSchemasLoader(() => Promise.reject(new Error('checkout.js: 404')));
    const quote = { lines: [], total: { amount: 1, currency: 'EUR' } };
    const { c } = client(() => ok({ name: 'price_changed', message: 'changed', quote }, 409));
    const err = await c
      .quote({ pid: 1, billingCycle: 'monthly', currency: 'EUR', extraConnections: 0, proxyProtection: false })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'price_changed', status: 409, quote: null });
  });
});
