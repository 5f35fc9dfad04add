// The seller's console (/checkout/admin/) end to end, as a new owner meets it: `streamcart operator
// add` prints the setup link, the owner chooses a password and enrols TOTP (the code computed here
// from the secret the page shows), signs in, finds an order placed through the API by its email,
// opens it, and looks at the jobs and held orders. Every screen passes axe-core with zero
// violations, under the console's strict CSP with no console error. CONSOLE_SCREENSHOTS=<dir>
// saves a PNG of each screen (docs/console/ holds the ones docs/console.md shows).
//
// More screens: add an entry to SCREENS (path, heading, a selector that shows it loaded).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { api, launchBrowser, newPage, startServer, uniqueEmail } from './helpers.js';
import { PASSWORD, addOperator, code, visit } from './console-helpers.js';

const OWNER = 'owner@example.com';

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

/** Every screen of the console. heading: the h1; ready: what shows the data arrived. */
const SCREENS = [
  { path: '', heading: 'Dashboard', ready: '[data-testid="counts"]', name: 'dashboard' },
  { path: 'orders', heading: 'Orders', ready: 'table tbody tr', name: 'orders' },
  { path: 'held', heading: 'Held orders', ready: 'table', name: 'held' },
  { path: 'jobs', heading: 'Jobs', ready: 'table', name: 'jobs' },
  { path: 'jobs?state=dead', heading: 'Jobs', ready: 'table', name: 'jobs-dead' },
  { path: 'customers', heading: 'Customers', ready: 'table tbody tr', name: 'customers' },
  { path: 'subscriptions', heading: 'Subscriptions', ready: 'table tbody tr', name: 'subscriptions-all' },
  { path: 'webhooks', heading: 'Webhooks', ready: 'main', name: 'webhooks' },
  { path: 'mail', heading: 'Mail', ready: 'table tbody tr', name: 'mail' },
  { path: 'catalog', heading: 'Catalog', ready: '[data-testid="catalog-form-editor"]', name: 'catalog' },
  { path: 'promotions', heading: 'Promotions', ready: 'table tbody tr', name: 'promotions' },
  { path: 'audit', heading: 'Audit log', ready: 'table tbody tr', name: 'audit' },
  { path: 'operators', heading: 'Operators', ready: 'table tbody tr', name: 'operators' },
  { path: 'payments', heading: 'Money to review', ready: 'main', name: 'payments' },
  { path: 'audit?action=console-signin-failed', heading: 'Audit log', ready: 'main', name: 'audit-signin-failed' },
];

test('console: operator setup with TOTP, sign-in, find an order by email, every screen accessible', async () => {
  // A buyer's order, placed through the shop's API.
  const buyer = uniqueEmail('console');
  const session = await api(server, '/session', { method: 'POST', body: { email: buyer } });
  assert.equal(session.status, 201, session.text);
  const placed = await api(server, '/orders', {
    method: 'POST',
    token: session.json.token,
    body: { pid: 2, billingCycle: 'monthly', currency: 'EUR', extraConnections: 0, proxyProtection: false, gateway: 'sandbox' },
  });
  assert.ok(placed.status === 200 || placed.status === 201, placed.text);
  const orderId = placed.json.orderId;
  assert.ok(orderId, placed.text);
  // Paid on the sandbox's payment page, so the dashboard has revenue and the order a full timeline.
  const buyerPage = await newPage(browser);
  await buyerPage.goto(new URL(placed.json.paymentUrl, server.url).href);
  await buyerPage.locator('[data-testid="sandbox-pay"]').click();
  await buyerPage.waitForURL((u) => !u.pathname.includes('/payments/sandbox/'));
  await buyerPage.context().close();

  // The owner, added from the command line.
  const link = await addOperator(server, OWNER);

  // The app's page carries the strict CSP, for the setup link and any client route.
  for (const path of [new URL(link).pathname + new URL(link).search, '/checkout/admin/orders/x']) {
    const res = await fetch(server.url + path);
    assert.equal(res.status, 200);
    const csp = res.headers.get('content-security-policy');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe|https:/);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  }

  const page = await newPage(browser);
  const cspViolations = [];
  await page.exposeFunction('reportCsp', (v) => cspViolations.push(v));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => window.reportCsp(`${e.violatedDirective} ${e.blockedURI}`)),
  );
  const offOrigin = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(server.url) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) offOrigin.push(r.url());
  });
  // Failed answers, but the 401 of GET /admin/session that shows sign-in.
  const failed = [];
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.status() >= 400 && !(r.status() === 401 && path === '/checkout/api/admin/session')) failed.push(`${r.status()} ${path}`);
  });

  // Setup: a password, then the authenticator.
  await page.goto(link);
  await page.getByRole('heading', { level: 1, name: 'Set up your console account' }).waitFor();
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await visit(page, 'setup-1-password');
  await page.getByRole('button', { name: 'Continue' }).click();
  const secret = (await page.getByTestId('totp-secret').innerText()).trim();
  assert.match(await page.getByTestId('otpauth-url').innerText(), /^otpauth:\/\/totp\//);
  await page.getByRole('img', { name: 'QR code of the authenticator link' }).waitFor();
  await visit(page, 'setup-2-authenticator');
  const now = Date.now();
  await page.getByLabel('Authenticator code').fill(code(secret, now));
  await page.getByRole('button', { name: 'Finish setup' }).click();
  await page.getByTestId('setup-done').waitFor();
  await visit(page, 'setup-3-done');

  // Sign-in, keyboard only. The confirming code is used up: the next step's code (the server
  // accepts its neighbours for clock drift) signs in without waiting 30 seconds.
  await page.getByRole('link', { name: 'Go to sign-in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await page.getByLabel('Email').focus();
  await page.keyboard.type(OWNER);
  await page.keyboard.press('Tab');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Tab');
  await page.keyboard.type(code(secret, now + 30_000));
  await visit(page, 'signin');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  assert.equal(await page.getByTestId('operator').innerText(), OWNER);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'streamcart_admin');
  assert.ok(cookie?.httpOnly, 'the session cookie is HttpOnly');
  assert.equal(await page.evaluate(() => document.cookie.includes('streamcart_admin')), false);

  for (const s of SCREENS) {
    await page.goto(`${server.url}/checkout/admin/${s.path}`);
    await page.getByRole('heading', { level: 1, name: s.heading }).waitFor();
    await page.locator(s.ready).first().waitFor();
    await visit(page, s.name);
  }

  // The order, found by its buyer's email, and its page with the timeline.
  await page.goto(`${server.url}/checkout/admin/orders`);
  await page.getByLabel('Search').fill(buyer);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL((u) => u.searchParams.get('q') === buyer);
  const row = page.getByRole('row').filter({ hasText: buyer });
  await row.getByRole('link', { name: orderId }).waitFor();
  assert.equal(await page.locator('table tbody tr').count(), 1);
  await visit(page, 'orders-by-email');
  await row.getByRole('link', { name: orderId }).click();
  await page.getByRole('heading', { level: 1, name: `Order ${orderId}` }).waitFor();
  await page.getByTestId('timeline').getByText('Created', { exact: true }).first().waitFor();
  await visit(page, 'order-detail');

  // The skip link is the first stop of the keyboard, and moves to the content.
  await page.goto(`${server.url}/checkout/admin/jobs`);
  await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');

  // Sign-out ends the session: the API refuses the cookie afterwards.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  const after = await page.evaluate(() => fetch('/checkout/api/admin/session').then((r) => r.status));
  assert.equal(after, 401);

  assert.deepEqual(cspViolations, [], 'CSP violations');
  assert.deepEqual(offOrigin, [], 'requests to other origins');
  assert.deepEqual(failed, [], 'failed API calls');
  // The browser logs failed loads itself (checked above by URL); anything else is a fault.
  assert.deepEqual(
    page.problems.filter((p) => !/^Failed to load resource/.test(p)),
    [],
    'console errors',
  );
  await page.context().close();
});
