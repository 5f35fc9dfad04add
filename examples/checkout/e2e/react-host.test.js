// The npm package in a React 19 app: examples/react-host is built from @streamcart/widget (React as a
// peer, lazy pieces as the app's own chunks), served on its own origin with its own key
// (pk_test_react), and a buyer pays for a plan through the sandbox while the app drives the element
// through its methods and logs its events.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, writeFile, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, launchBrowser, newPage, shot, persisted, api, uniqueEmail, freePort, repoRoot, startExample } from './helpers.js';

const HOST_DIR = join(repoRoot, 'examples/react-host');
const LIB = join(repoRoot, 'widget/lib');

let server;
let browser;
let host;
let dir;
before(async () => {
  // The app is built here (with the package it imports), so a clean clone needs no extra step.
  await run('npm', ['run', 'build', '-w', 'examples/react-host']);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  dir = await mkdtemp(join(tmpdir(), 'streamcart-react-host-'));
  const demo = await readFile(join(repoRoot, 'api/catalog/demo.yaml'), 'utf8');
  // Its legal pages are files beside it (catalog check refuses it without them).
  await cp(join(repoRoot, 'api/catalog/legal'), join(dir, 'legal'), { recursive: true });
  assert.ok(demo.includes('      - http://127.0.0.1:8082\n'), 'demo catalog allows the default React host origin');
  const catalog = join(dir, 'catalog.yaml');
  await writeFile(catalog, demo.replace('      - http://127.0.0.1:8082\n', `      - ${origin}\n`));
  server = await startServer({ env: { STREAMCART_CATALOG: catalog } });
  host = await startExample('react-host', port, server.url, 'react host on');
  host.origin = origin;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await host?.stop();
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** run executes a command in the repository root and fails with its output when it fails. */
function run(cmd, args) {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b) => {
      output += b;
    });
    child.stderr.on('data', (b) => {
      output += b;
    });
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? ok(output) : fail(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

const W = (page, id) => page.locator(`streamcart-checkout [data-testid="${id}"]`);
const H = (page, id) => page.locator(`[data-testid="${id}"]`);

/** logged reads the app's own event log (what its onstreamcart:* props and method calls wrote). */
function logged(page) {
  return page.$$eval('[data-testid="event-log"] li', (items) =>
    items.map((li) => ({
      kind: li.dataset.kind,
      type: li.dataset.type,
      detail: li.dataset.kind === 'event' ? JSON.parse(li.querySelector('pre').textContent) : null,
    })),
  );
}

/** until waits for the app's log to show an event of this type (the count-th one). */
function until(page, type, count = 1) {
  return page.waitForFunction(
    ([t, n]) => document.querySelectorAll(`[data-testid="event-log"] li[data-type="${t}"]`).length >= n,
    [type, count],
    { timeout: 60_000 },
  );
}

test('the package keeps React a peer and ships its lazy pieces as chunks', async () => {
  const pkg = JSON.parse(await readFile(join(repoRoot, 'widget/package.json'), 'utf8'));
  assert.deepEqual(Object.keys(pkg.peerDependencies).sort(), ['@types/react', 'react', 'react-dom']);
  assert.equal(pkg.exports['.'].types, './lib/index.d.ts');
  assert.equal(pkg.exports['.'].default, './lib/index.js');

  const files = ['index.js', ...(await readdir(join(LIB, 'chunks'))).map((f) => `chunks/${f}`)];
  const code = Object.fromEntries(await Promise.all(files.map(async (f) => [f, await readFile(join(LIB, f), 'utf8')])));
  const imports = Object.values(code).flatMap((c) => [...c.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]));
  for (const peer of ['react', 'react-dom/client', 'react/jsx-runtime']) assert.ok(imports.includes(peer), `imports ${peer}: ${imports}`);
  assert.deepEqual(
    imports.filter((i) => !i.startsWith('.') && !/^(react|react-dom)(\/|$)|^valibot$/.test(i)),
    [],
    'nothing else is external',
  );
  assert.ok(!imports.includes('react-dom/server'), 'the server renderer stays out');
  for (const [f, c] of Object.entries(code)) {
    // React itself is not in the package (this string is in react and react-dom's own code).
    assert.doesNotMatch(c, /__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE/, f);
  }
  // Lazy pieces are relative dynamic imports the app's bundler resolves, not URLs.
  const lazy = Object.entries(code)
    .flatMap(([f, c]) => [...c.matchAll(/import\("(\.[^"]+)"\)/g)].map((m) => join(f, '..', m[1])))
    .sort();
  // The text tables: one per locale and area, but the English plan-page texts in index.js; regional
  // English has tables only for the areas it spells differently.
  const tables = ['de-de', 'es-es', 'nl-nl', 'pt-pt'].flatMap((c) => ['plans', 'checkout', 'order', 'aftersale'].map((a) => `${c}-${a}`));
  tables.push('en-checkout', 'en-order', 'en-aftersale', 'en-gb-checkout', 'en-gb-order', 'en-us-checkout', 'en-us-order');
  // The device set-up panel's texts, one table per locale (regional English names en's).
  tables.push(...['de-de', 'es-es', 'nl-nl', 'pt-pt', 'en', 'en-gb', 'en-us'].map((c) => `${c}-devices`));
  assert.deepEqual(lazy, ['aftersale', 'checkout', 'order', ...tables].map((n) => `chunks/${n}.js`).sort());
  assert.match(await readFile(join(LIB, 'index.d.ts'), 'utf8'), /'streamcart-checkout': StreamcartCheckoutProps;/);

  // The app's build turned them into chunks of its own.
  const assets = await readdir(join(HOST_DIR, 'dist/assets'));
  for (const name of ['aftersale', 'de-de-plans', 'es-es-order', 'nl-nl-checkout', 'pt-pt-aftersale']) {
    assert.ok(
      assets.some((f) => f.startsWith(`${name}-`) && f.endsWith('.js')),
      `${name} chunk in ${assets}`,
    );
  }
});

test('React host: methods through a ref, a paid plan through the sandbox, the events in order', async () => {
  const page = await newPage(browser);
  const apiCalls = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'fetch' && r.url().startsWith(`${server.url}/checkout/api/`)) apiCalls.push(r);
  });
  const chunks = [];
  const missing = [];
  page.on('response', (r) => {
    if (r.url().startsWith(`${host.origin}/assets/`)) chunks.push(`${r.status()} ${new URL(r.url()).pathname}`);
    if (r.status() === 404) missing.push(r.url());
  });

  await page.goto(`${host.origin}/`);
  await until(page, 'streamcart:ready');
  await W(page, 'plan-card').first().waitFor();
  await shot(page, 'react-host-1-plans');
  // The host's theme reaches into the shadow root.
  const primary = await page.evaluate(() =>
    getComputedStyle(document.querySelector('streamcart-checkout')).getPropertyValue('--sc-primary').trim(),
  );
  assert.equal(primary, '#7c3aed');
  await H(page, 'session').filter({ hasText: 'Not signed in' }).waitFor();

  // setCurrency and setLocale through the ref; German comes from the app's own locale chunk.
  await H(page, 'currency-select').selectOption('GBP');
  await until(page, 'streamcart:currency-changed');
  await H(page, 'locale-select').selectOption('de-de');
  await until(page, 'streamcart:locale-changed');
  await page.waitForFunction(() => document.querySelector('streamcart-checkout').shadowRoot.textContent.includes('Wählen Sie Ihr Paket'));
  assert.ok(
    chunks.some((c) => /^200 \/assets\/de-de-[\w-]+\.js$/.test(c)),
    `German chunk loaded: ${chunks}`,
  );

  // open(2) through the ref selects the plan.
  await H(page, 'pid-input').fill('2');
  await H(page, 'open-button').click();
  await until(page, 'streamcart:plan-selected');
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"][aria-checked="true"]').waitFor();

  const email = uniqueEmail('react-host');
  await W(page, 'email-input').fill(email);
  await W(page, 'email-input').blur();
  await page.locator('streamcart-checkout [data-testid="gateway-option"][data-module="sandbox"]').click();
  await page.waitForFunction(() => {
    const b = document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]');
    return b && !b.disabled;
  });
  await shot(page, 'react-host-2-checkout');
  await W(page, 'pay-button').click();

  // The shop's sandbox page, then back to the React app's origin.
  // The shop's links are on localhost for its loopback listener (the README's address), the
  // server's own url on 127.0.0.1: the same port either way.
  await page.waitForURL((u) => u.port === new URL(server.url).port && u.pathname.startsWith('/checkout/api/payments/sandbox/'));
  await page.locator('[data-testid="sandbox-pay"]').click();
  await page.waitForURL((u) => u.href.startsWith(`${host.origin}/`), { timeout: 60_000 });
  await W(page, 'credential-username').waitFor({ timeout: 60_000 });
  await until(page, 'streamcart:service-ready');
  await shot(page, 'react-host-3-success');

  // The app's log, across the trip to the payment page: every event once, in this order.
  const log = await logged(page);
  const events = log.filter((e) => e.kind === 'event');
  const order = events.map((e) => e.type).filter((t) => t !== 'streamcart:session-changed');
  assert.deepEqual(order, [
    'streamcart:ready',
    'streamcart:currency-changed',
    'streamcart:locale-changed',
    'streamcart:plan-selected',
    'streamcart:order-created',
    'streamcart:payment-started',
    'streamcart:ready', // the page again, after the payment page
    'streamcart:order-paid',
    'streamcart:service-ready',
  ]);
  const detail = (type, n = 0) => events.filter((e) => e.type === type)[n].detail;
  assert.deepEqual(detail('streamcart:currency-changed'), { currency: 'GBP' });
  assert.deepEqual(detail('streamcart:locale-changed'), { locale: 'de-de' });
  assert.equal(detail('streamcart:plan-selected').pid, 2);
  const created = detail('streamcart:order-created');
  assert.equal(created.total.currency, 'GBP');
  assert.ok(created.total.amount > 0, 'a paid plan');
  const started = detail('streamcart:payment-started');
  assert.equal(started.orderId, created.orderId);
  assert.equal(started.gateway, 'sandbox');
  const paymentUrl = new URL(started.paymentUrl);
  assert.ok(
    paymentUrl.port === new URL(server.url).port && paymentUrl.pathname.startsWith('/checkout/api/payments/sandbox/'),
    started.paymentUrl,
  );
  // Back from the payment page: the language (browserLang cookie) and the session are kept.
  assert.equal(detail('streamcart:ready', 1).locale, 'de-de');
  assert.equal(detail('streamcart:ready', 1).signedIn, true);
  assert.deepEqual(detail('streamcart:order-paid'), { orderId: created.orderId });
  const ready = detail('streamcart:service-ready');
  assert.equal(ready.orderId, created.orderId);
  assert.equal(ready.serviceIds.length, 1);
  // Each method call the app logged came before the event it caused.
  const calls = log.map((e) => `${e.kind}:${e.type}`);
  for (const [call, event] of [
    ['setCurrency', 'currency-changed'],
    ['setLocale', 'locale-changed'],
    ['open', 'plan-selected'],
  ]) {
    assert.ok(
      calls.indexOf(`call:${call}`) >= 0 && calls.indexOf(`call:${call}`) < calls.indexOf(`event:streamcart:${event}`),
      `${call} before ${event}: ${calls}`,
    );
  }
  // No secret in any detail.
  const keys = (v) => (v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => [k, ...keys(x)]) : []);
  assert.deepEqual(
    events.flatMap((e) => keys(e.detail)).filter((k) => /token|password|secret/i.test(k)),
    [],
  );

  // The service is live, and every API call carried the key and got CORS for this origin.
  const state = await persisted(page);
  assert.deepEqual(state.order.serviceid.map(String), ready.serviceIds.map(String));
  const svc = await api(server, `/services/${ready.serviceIds[0]}`, { token: state.token });
  assert.equal(svc.json.status, 'Active');
  const fetched = apiCalls.filter((r) => r.method() !== 'OPTIONS');
  assert.ok(fetched.length > 0);
  for (const r of fetched) {
    assert.equal((await r.allHeaders())['streamcart-store'], 'pk_test_react', r.url());
    const resp = await r.response();
    if (resp) assert.equal((await resp.allHeaders())['access-control-allow-origin'], host.origin, r.url());
  }

  // The after-sale screens are the package's other lazy chunk, loaded from the app's assets.
  await W(page, 'manage-services').click();
  await page
    .locator('streamcart-checkout [data-testid="services-view"], streamcart-checkout [data-testid="signin-form"]')
    .first()
    .waitFor();
  assert.ok(
    chunks.some((c) => /^200 \/assets\/aftersale-[\w-]+\.js$/.test(c)),
    `after-sale chunk loaded: ${chunks}`,
  );

  // signOut() through the ref.
  await H(page, 'signout-button').click();
  await H(page, 'session').filter({ hasText: 'Not signed in' }).waitFor();
  const last = (await logged(page)).filter((e) => e.kind === 'event').at(-1);
  assert.deepEqual(last, { kind: 'event', type: 'streamcart:session-changed', detail: { signedIn: false } });
  await W(page, 'plan-card').first().waitFor();

  assert.deepEqual(
    chunks.filter((c) => !c.startsWith('200 ')),
    [],
  );
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
