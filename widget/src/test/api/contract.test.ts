// Every fixture is a response the contract declares: fixtures/<service>.<method>/<status>[.<variant>].json
// must name an operation of api/httpapi/openapi3.json and a status it answers with, and its body
// must match that response's schema. The schemas are derived from the OpenAPI document itself, so
// a change of the design that a fixture does not follow fails here.
import { describe, expect, it } from 'vitest';
import { body, FIXTURES } from './fixtures';
import { contract } from './mock';

const all = [...FIXTURES.entries()].map(([name, f]) => ({ name, ...f }));

describe('the API fixtures', () => {
  it('are all found', () => {
    expect(all.length).toBeGreaterThan(50);
  });

  it('each match the response the contract declares for them', () => {
    const problems = all.flatMap(({ name, op, status, body }) => contract.checkResponse(op, status, body).map((p) => `${name}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('carry a stable error name and a human message when they are errors', () => {
    for (const { name, status, body } of all) {
      if (status < 400) continue;
      const error = body as { name: string; message: string };
      expect(error.name, name).toMatch(/^[a-z_]+$/);
      expect(error.message.length, name).toBeGreaterThan(0);
    }
  });
});

describe('the contract', () => {
  // The validator must be able to fail: drift of each kind is caught.
  it('rejects a drifted body', () => {
    const products = body<{ products: Record<string, unknown>[] }>('catalog.listProducts', '200');
    const first = products.products[0]!;
    const cases = {
      'a required field missing': { products: [{ ...first, pid: undefined }] },
      'a field of the wrong type': { products: [{ ...first, pid: '1' }] },
      'a field the contract does not have': { products: [{ ...first, priceLabel: '€12.99' }] },
      'a value outside an enum': { products: [{ ...first, group: 'bundle' }] },
      'money without its currency': { products: [{ ...first, pricing: { onetime: { amount: 0 } } }] },
    };
    for (const [what, drifted] of Object.entries(cases)) {
      expect(contract.checkResponse('catalog.listProducts', 200, JSON.parse(JSON.stringify(drifted))), what).not.toEqual([]);
    }
    expect(contract.checkResponse('catalog.listProducts', 200, products)).toEqual([]);
    // A status the operation never answers with is drift too.
    expect(contract.checkResponse('catalog.listProducts', 409, products)).not.toEqual([]);
    const order = body('order.get', '200.pending');
    expect(contract.checkResponse('order.get', 200, { ...order, status: 'shipped' }), 'unknown order status').not.toEqual([]);
  });

  it('matches requests to operations by method and path', () => {
    expect(contract.match('GET', '/checkout/api/products')?.op.key).toBe('catalog.listProducts');
    expect(contract.match('GET', '/checkout/api/orders/ord_1')?.params).toEqual({ orderId: 'ord_1' });
    expect(contract.match('POST', '/checkout/api/orders/ord_1/cancel')?.op.key).toBe('order.cancel');
    expect(contract.match('GET', '/checkout/api/services/s%201/playlist.m3u')?.params.serviceId).toBe('s 1');
    // The more literal template wins: an invoice's PDF is not the invoice itself.
    expect(contract.match('GET', '/checkout/api/invoices/inv_1.pdf')).toMatchObject({
      op: { key: 'invoices.pdf' },
      params: { invoiceId: 'inv_1' },
    });
    expect(contract.match('GET', '/checkout/api/invoices/inv_1')?.op.key).toBe('invoices.get');
    expect(contract.match('DELETE', '/checkout/api/products')).toBeNull();
    const quote = { pid: 2, billingCycle: 'monthly', currency: 'EUR', extraConnections: 0, proxyProtection: false };
    expect(contract.checkRequest('pricing.quote', quote)).toEqual({ errors: [], unknown: [] });
    expect(contract.checkRequest('pricing.quote', { ...quote, pid: 'two' }).errors).not.toEqual([]);
    expect(contract.checkRequest('pricing.quote', { ...quote, gift: true })).toEqual({ errors: [], unknown: ['gift'] });
    const jobs = new URLSearchParams('state=dead&limit=50');
    expect(contract.checkParameters('adminJobs.list', {}, jobs)).toEqual([]);
    expect(contract.checkParameters('adminJobs.list', {}, new URLSearchParams('limit=501'))).toHaveLength(1);
    expect(contract.checkParameters('adminJobs.list', {}, new URLSearchParams('limit=ten'))).toHaveLength(1);
    expect(contract.checkParameters('adminJobs.list', {}, new URLSearchParams('page=2'))).toEqual([
      'query parameter page: not declared by adminJobs.list',
    ]);
    expect(contract.checkParameters('adminJobs.retry', { id: '7' }, new URLSearchParams())).toEqual([]);
    expect(contract.checkParameters('adminJobs.retry', { id: 'x' }, new URLSearchParams())).toHaveLength(1);
  });
});
