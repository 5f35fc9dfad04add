// Every fixture is a response the contract declares: fixtures/<service>.<method>/<status>[.<variant>].json
// must name an operation of api/httpapi/openapi3.json and a status it answers with, and its body
// must match that response's schema. The schemas are derived from the OpenAPI document itself, so
// a change of the design that a fixture does not follow fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadContract, parseFixtureName } from '../contract/contract.js';

const root = (p) => fileURLToPath(new URL(p, import.meta.url));
const doc = JSON.parse(await readFile(root('../../api/httpapi/openapi3.json'), 'utf8'));
const contract = loadContract(doc);

async function fixtures() {
  const out = [];
  for (const dir of (await readdir(root('../fixtures'), { withFileTypes: true })).filter((d) => d.isDirectory())) {
    for (const file of await readdir(root(`../fixtures/${dir.name}`))) {
      out.push({ op: dir.name, file, body: JSON.parse(await readFile(root(`../fixtures/${dir.name}/${file}`), 'utf8')) });
    }
  }
  return out;
}

test('every fixture matches the response the contract declares for it', async () => {
  const all = await fixtures();
  assert.ok(all.length > 50, `only ${all.length} fixtures found`);
  const problems = [];
  for (const { op, file, body } of all) {
    const name = parseFixtureName(file);
    if (!name) {
      problems.push(`${op}/${file}: name is not <status>[.<variant>].json`);
      continue;
    }
    for (const p of contract.checkResponse(op, name.status, body)) problems.push(`${op}/${file}: ${p}`);
  }
  assert.deepEqual(problems, []);
});

test('error fixtures carry a stable error name and a human message', async () => {
  for (const { op, file, body } of await fixtures()) {
    if (parseFixtureName(file).status < 400) continue;
    assert.match(body.name, /^[a-z_]+$/, `${op}/${file}`);
    assert.ok(body.message.length > 0, `${op}/${file}`);
  }
});

// The validator must be able to fail: drift of each kind is caught.
test('a drifted body is rejected', async () => {
  const products = JSON.parse(await readFile(root('../fixtures/catalog.listProducts/200.json'), 'utf8'));
  const first = products.products[0];
  const cases = {
    'a required field missing': { products: [{ ...first, pid: undefined }] },
    'a field of the wrong type': { products: [{ ...first, pid: '1' }] },
    'a field the contract does not have': { products: [{ ...first, priceLabel: '€12.99' }] },
    'a value outside an enum': { products: [{ ...first, group: 'bundle' }] },
    'money without its currency': { products: [{ ...first, pricing: { onetime: { amount: 0 } } }] },
  };
  for (const [what, body] of Object.entries(cases)) {
    assert.notDeepEqual(contract.checkResponse('catalog.listProducts', 200, JSON.parse(JSON.stringify(body))), [], what);
  }
  assert.deepEqual(contract.checkResponse('catalog.listProducts', 200, products), []);
  // A status the operation never answers with is drift too.
  assert.notDeepEqual(contract.checkResponse('catalog.listProducts', 409, products), []);
  const order = JSON.parse(await readFile(root('../fixtures/order.get/200.pending.json'), 'utf8'));
  assert.notDeepEqual(contract.checkResponse('order.get', 200, { ...order, status: 'shipped' }), [], 'unknown order status');
});

test('requests are matched to operations by method and path', () => {
  assert.equal(contract.match('GET', '/checkout/api/products')?.op.key, 'catalog.listProducts');
  assert.deepEqual(contract.match('GET', '/checkout/api/orders/ord_1')?.params, { orderId: 'ord_1' });
  assert.equal(contract.match('POST', '/checkout/api/orders/ord_1/cancel')?.op.key, 'order.cancel');
  assert.equal(contract.match('GET', '/checkout/api/services/s%201/playlist.m3u')?.params.serviceId, 's 1');
  assert.equal(contract.match('DELETE', '/checkout/api/products'), null);
  const quote = { pid: 2, billingCycle: 'monthly', currency: 'EUR', extraConnections: 0, proxyProtection: false };
  assert.deepEqual(contract.checkRequest('pricing.quote', quote), { errors: [], unknown: [] });
  assert.notDeepEqual(contract.checkRequest('pricing.quote', { ...quote, pid: 'two' }).errors, []);
  assert.deepEqual(contract.checkRequest('pricing.quote', { ...quote, gift: true }), { errors: [], unknown: ['gift'] });
});
