// What the /checkout/ host asks for on load, structurally (no timings): each API resource once —
// the widget reads /storefront and /currencies and announces them, the host does not ask again —
// and the widget's box is reserved before the plans fill it, so the page below does not move.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage } from './helpers.js';

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The API GETs (path and query) a page load asked for, after the network went quiet. */
async function apiRequests(page, url, ready) {
  const asked = [];
  page.on('request', (req) => {
    const u = new URL(req.url());
    if (u.pathname.startsWith('/checkout/api/') && req.method() === 'GET') asked.push(u.pathname + u.search);
  });
  await page.goto(url);
  await ready();
  await page.waitForLoadState('networkidle');
  return asked;
}

const once = (list) => list.filter((x, i) => list.indexOf(x) !== i);

for (const [label, viewport] of [
  ['phone', { width: 412, height: 823 }],
  ['desktop', { width: 1280, height: 900 }],
]) {
  test(`/checkout/ on a ${label}: each API resource once, the host's picker and links from the widget`, async () => {
    const page = await newPage(browser, { viewport });
    const select = '[data-testid="currency-select"]';
    const asked = await apiRequests(page, `${server.url}/checkout/`, async () => {
      await page.locator('streamcart-checkout [data-testid="plan-card"]').first().waitFor();
      await page.waitForFunction((s) => document.querySelector(s).options.length > 1, select);
    });
    assert.deepEqual(once(asked), [], `requested more than once: ${asked.join(', ')}`);
    for (const path of ['/checkout/api/storefront', '/checkout/api/currencies']) {
      assert.equal(asked.filter((p) => p.startsWith(path)).length, 1, `${path} once (${asked.join(', ')})`);
    }
    // The picker holds every currency of the API's answer.
    const currencies = await (await fetch(`${server.url}/checkout/api/currencies`)).json();
    const values = await page.locator(`${select} option`).evaluateAll((os) => os.map((o) => o.value));
    assert.deepEqual(
      values,
      currencies.currencies.map((c) => c.code),
    );
    assert.deepEqual(page.problems, []);
    await page.context().close();
  });
}

test('a page without the widget (404) asks the API for its header itself, once each', async () => {
  const page = await newPage(browser);
  const asked = await apiRequests(page, `${server.url}/checkout/no-such-page`, async () => {
    await page.waitForFunction(() => document.querySelector('[data-testid="currency-select"]').options.length > 1);
  });
  assert.deepEqual(
    asked.filter((p) => p.startsWith('/checkout/api/currencies')),
    ['/checkout/api/currencies'],
  );
  assert.deepEqual(
    asked.filter((p) => p.startsWith('/checkout/api/storefront')),
    ['/checkout/api/storefront'],
  );
  await page.context().close();
});

test('the plan page reserves the widget a screen before the plans arrive', async () => {
  const page = await newPage(browser, { viewport: { width: 412, height: 823 } });
  // The plans never come: what is measured is the box the page gives the widget on its own.
  await page.route('**/checkout/api/products**', () => new Promise(() => {}));
  await page.goto(`${server.url}/checkout/`);
  const box = await page.locator('streamcart-checkout').boundingBox();
  assert.ok(box.height >= 823, `widget box ${box.height}px high, want at least the 823px screen`);
  const features = await page.locator('#features').boundingBox();
  assert.ok(features.y >= 823, `the claims start below the fold (y ${features.y})`);
  await page.context().close();
});
