import { describe, expect, it, vi } from 'vitest';
import { createClient } from './client';
import { afterSaleApi } from './aftersale';

const upsellAnswer = { orderId: 'o1', serviceId: 's1', extraQuantity: 1, status: 'pending', total: { amount: 300, currency: 'EUR' } };
const body = { serviceId: 's1', extraQuantity: 1, currency: 'EUR', gateway: 'sandbox', returnUrl: '/checkout/waiting' };

function api(fetchImpl: (url: string, init: RequestInit) => Promise<Response>) {
  const f = vi.fn(fetchImpl);
  const client = createClient({ base: 'https://shop.example/checkout/api', fetch: f as unknown as typeof fetch, token: () => 'tok' });
  return { f, a: afterSaleApi(client, 'de-de', () => crypto.randomUUID()) };
}

const keyOf = (init: RequestInit) => (init.headers as Record<string, string>)['Idempotency-Key'];

describe('after-sale API', () => {
  it('retries an order with its first Idempotency-Key and uses a new one for the next purchase', async () => {
    let fail = true;
    const { f, a } = api(() => {
      if (fail) {
        fail = false;
        return Promise.reject(new TypeError('network down'));
      }
      return Promise.resolve(new Response(JSON.stringify(upsellAnswer), { status: 201 }));
    });
    await expect(a.upsellOrder(body)).rejects.toMatchObject({ code: 'network' });
    await a.upsellOrder(body);
    await a.upsellOrder(body);
    const keys = f.mock.calls.map(([, init]) => keyOf(init));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('asks for service names in its locale', async () => {
    const { f, a } = api(() => Promise.resolve(new Response(JSON.stringify({ services: [] }))));
    await a.services();
    expect(String(f.mock.calls[0]![0])).toBe('https://shop.example/checkout/api/services?locale=de-de');
  });
});
