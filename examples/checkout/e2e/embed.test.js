// The checkout embedded elsewhere: examples/plain-html (one script tag, served by the binary),
// examples/strict-csp (no unsafe-inline, no unsafe-eval) and examples/reseller-site (its own server on another origin, its own key and theme, buying
// through CORS), plus the storefront key rules: unknown key 401, foreign origin refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, writeFile, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startServer,
  launchBrowser,
  newPage,
  shot,
  gotoReady,
  recordEvents,
  events,
  persisted,
  api,
  uniqueEmail,
  freePort,
  repoRoot,
  startExample,
} from './helpers.js';

let server;
let browser;
let reseller;
let dir;
before(async () => {
  // The demo catalog with pk_test_reseller allowed on this run's reseller port.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  dir = await mkdtemp(join(tmpdir(), 'streamcart-embed-'));
  const demo = await readFile(join(repoRoot, 'api/catalog/demo.yaml'), 'utf8');
  // Its legal pages are files beside it (catalog check refuses it without them).
  await cp(join(repoRoot, 'api/catalog/legal'), join(dir, 'legal'), { recursive: true });
  const catalog = join(dir, 'catalog.yaml');
  assert.ok(demo.includes('      - http://127.0.0.1:8081\n'), 'demo catalog allows the default reseller origin');
  await writeFile(
    catalog,
    demo.replace('      - http://127.0.0.1:8081\n', `      - ${origin}\n`).replace('http://127.0.0.1:8081/logo.svg', `${origin}/logo.svg`) +
      `  - key: pk_test_elsewhere\n    name: Elsewhere\n    allowedOrigins: [http://127.0.0.1:1]\n`,
  );
  server = await startServer({ env: { STREAMCART_CATALOG: catalog, STREAMCART_EXAMPLES: 'true' } });
  reseller = await startExample('reseller-site', port, server.url, 'reseller site on');
  reseller.origin = origin;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await reseller?.stop();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const W = (page, id) => page.locator(`streamcart-checkout [data-testid="${id}"]`);

async function buyTrial(page, label) {
  await W(page, 'plan-card').first().waitFor();
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="1"]').click();
  await W(page, 'email-input').fill(uniqueEmail(label));
  await W(page, 'email-input').blur();
  await page.waitForFunction(() => {
    const b = document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]');
    return b && !b.disabled;
  });
  await W(page, 'pay-button').click();
  await W(page, 'credential-username').waitFor({ timeout: 60_000 });
  const username = (await W(page, 'credential-username').innerText()).trim();
  assert.ok(username, `${label}: credentials shown`);
  return username;
}

test('plain-html: one script tag, the free trial end to end', async () => {
  const page = await newPage(browser);
  await recordEvents(page);
  const { res, detail } = await gotoReady(page, `${server.url}/examples/plain-html/`);
  assert.equal(res.status(), 200);
  assert.equal(detail.signedIn, false);
  const html = await (await fetch(`${server.url}/examples/plain-html/`)).text();
  assert.equal((html.match(/<script\b/g) ?? []).length, 1, 'one script tag');
  await shot(page, 'embed-plain-1-plans');
  await buyTrial(page, 'plain');
  const state = await persisted(page);
  const svc = await api(server, `/services/${state.order.serviceid[0]}`, { token: state.token });
  assert.equal(svc.json.status, 'Active');
  const types = (await events(page)).map((e) => e.type);
  assert.ok(types.includes('streamcart:order-created') && types.includes('streamcart:service-ready'), `events ${types}`);
  assert.deepEqual(page.problems, []);
  await shot(page, 'embed-plain-2-success');
  await page.context().close();
});

test('strict-csp: no unsafe-inline or unsafe-eval, the free trial end to end without a violation', async () => {
  const page = await newPage(browser);
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const { res } = await gotoReady(page, `${server.url}/examples/strict-csp/`);
  const csp = res.headers()['content-security-policy'];
  assert.match(csp, /script-src 'self'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  await buyTrial(page, 'csp');
  await shot(page, 'embed-csp-success');
  assert.deepEqual(await page.evaluate(() => window.__violations), []);
  assert.deepEqual(page.problems, []);
  // The policy is really enforced: an inline script is blocked and reported.
  const blocked = await page.evaluate(async () => {
    const reported = new Promise((ok) => document.addEventListener('securitypolicyviolation', ok, { once: true }));
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true';
    document.body.append(s);
    await reported;
    return { ran: window.__inlineRan === true, violations: window.__violations.length };
  });
  assert.deepEqual(blocked, { ran: false, violations: 1 });
  await page.context().close();
});

test('reseller-site: another origin, its own key and theme, a paid plan through CORS and the sandbox', async () => {
  const page = await newPage(browser);
  const apiCalls = [];
  // The widget's own calls (fetch), not the navigation to the sandbox page.
  page.on('request', (r) => {
    if (r.resourceType() === 'fetch' && r.url().startsWith(`${server.url}/checkout/api/`)) apiCalls.push(r);
  });
  const missing = [];
  page.on('response', (r) => {
    if (r.status() === 404) missing.push(r.url());
  });
  await gotoReady(page, `${reseller.origin}/`);
  await W(page, 'plan-card').first().waitFor();
  // The storefront's theme is the fallback of --sc-primary (the page leaves it unset); the page's
  // own --sc-bg wins over the storefront's #f0fdfa.
  const theme = await page.waitForFunction(() => {
    const root = document.querySelector('streamcart-checkout').shadowRoot.querySelector('.sc-root');
    const style = getComputedStyle(root);
    const t = { p: style.getPropertyValue('--_p').trim(), bg: style.getPropertyValue('--_bg').trim() };
    return t.p === '#0f766e' ? t : null;
  });
  assert.deepEqual(await theme.jsonValue(), { p: '#0f766e', bg: '#ffffff' });
  // The storefront's logo above the plans, named for the storefront, loaded from the reseller's site.
  const logo = page.locator('streamcart-checkout img[part="logo"]');
  await logo.waitFor();
  assert.equal(await logo.getAttribute('alt'), 'Reseller demo');
  assert.equal(await logo.getAttribute('src'), `${reseller.origin}/logo.svg`);
  await page.waitForFunction(
    () => document.querySelector('streamcart-checkout').shadowRoot.querySelector('img[part="logo"]').naturalWidth > 0,
  );
  // Its default currency (EUR) without a currency attribute: the plans were asked for without one.
  const plans = apiCalls.filter((r) => new URL(r.url()).pathname === '/checkout/api/products');
  assert.ok(plans.length > 0);
  assert.equal(new URL(plans[0].url()).searchParams.get('currency'), null);
  // The total shows '—' until its quote arrives, then euros.
  await page.waitForFunction(() =>
    /\d/.test(document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="price-total"]')?.textContent ?? ''),
  );
  assert.match(await W(page, 'price-total').textContent(), /€/);
  await shot(page, 'embed-reseller-1-plans');

  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"]').click();
  await W(page, 'email-input').fill(uniqueEmail('reseller-site'));
  await W(page, 'email-input').blur();
  await page.locator('streamcart-checkout [data-testid="gateway-option"][data-module="sandbox"]').click();
  await page.waitForFunction(
    () => !document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]').disabled,
  );
  await W(page, 'pay-button').click();

  // The shop's sandbox page, then back to the reseller's own origin.
  // The shop's links are on localhost for its loopback listener (the README's address), the
  // server's own url on 127.0.0.1: the same port either way.
  await page.waitForURL((u) => u.port === new URL(server.url).port && u.pathname.startsWith('/checkout/api/payments/sandbox/'));
  await page.locator('[data-testid="sandbox-pay"]').click();
  await page.waitForURL((u) => u.href.startsWith(`${reseller.origin}/`), { timeout: 60_000 });
  await W(page, 'credential-username').waitFor({ timeout: 60_000 });
  await shot(page, 'embed-reseller-2-success');

  // Every API call carried the key and got CORS for this origin.
  const calls = apiCalls.filter((r) => r.method() !== 'OPTIONS');
  assert.ok(calls.length > 0);
  for (const r of calls) {
    assert.equal((await r.allHeaders())['streamcart-store'], 'pk_test_reseller', r.url());
    const resp = await r.response();
    if (resp) assert.equal((await resp.allHeaders())['access-control-allow-origin'], reseller.origin, r.url());
  }
  // The shop's sandbox page has no favicon; nothing else may be missing.
  assert.deepEqual(
    missing.filter((u) => !u.endsWith('/favicon.ico')),
    [],
  );
  assert.deepEqual(
    page.problems.filter((p) => !/404/.test(p)),
    [],
  );
  await page.context().close();
});

test('an unknown storefront key is refused with 401 unknown_store', async () => {
  const res = await fetch(`${server.url}/checkout/api/products`, { headers: { 'Streamcart-Store': 'pk_nope', Origin: reseller.origin } });
  assert.equal(res.status, 401);
  const body = await res.json();
  assert.equal(body.name, 'unknown_store');
  assert.equal(body.message, 'Unknown storefront key.');
  assert.equal(res.headers.get('access-control-allow-origin'), null);
});

test('an origin the key does not allow gets no CORS headers, and 403 on writes', async () => {
  const origin = reseller.origin;
  const headers = { 'Streamcart-Store': 'pk_test_elsewhere', Origin: origin, 'Content-Type': 'application/json' };
  const read = await fetch(`${server.url}/checkout/api/products`, { headers });
  assert.equal(read.status, 200);
  assert.equal(read.headers.get('access-control-allow-origin'), null);
  const write = await fetch(`${server.url}/checkout/api/quote`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ pid: 2, billingCycle: 'monthly', currency: 'EUR' }),
  });
  assert.equal(write.status, 403);
  assert.equal((await write.json()).name, 'origin_not_allowed');
  assert.equal(write.headers.get('access-control-allow-origin'), null);

  // And in a browser: the reseller's page with a key for another site cannot load the plans.
  const page = await newPage(browser);
  await page.goto(`${origin}/`);
  const failed = await page.evaluate(
    async ([api]) => {
      try {
        await fetch(`${api}/checkout/api/products`, { headers: { 'Streamcart-Store': 'pk_test_elsewhere' } });
        return false;
      } catch {
        return true;
      }
    },
    [server.url],
  );
  assert.equal(failed, true, 'the browser blocks the response');
  await page.context().close();

  // The preflight answers the storefront origins only.
  const pre = await fetch(`${server.url}/checkout/api/orders`, {
    method: 'OPTIONS',
    headers: {
      Origin: 'http://evil.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'streamcart-store',
    },
  });
  assert.equal(pre.headers.get('access-control-allow-origin'), null);
});
