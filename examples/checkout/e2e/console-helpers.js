// Shared helpers of the console end-to-end tests (console.test.js, console-actions.test.js):
// axe-core checks, screenshots, the TOTP of an operator, and an owner set up and signed in.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as OTPAuth from 'otpauth';
import { BIN, api, newPage, repoRoot } from './helpers.js';

const require = createRequire(import.meta.url);
const AXE_SOURCE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = process.env.CONSOLE_SCREENSHOTS ? join(repoRoot, process.env.CONSOLE_SCREENSHOTS) : '';
const run = promisify(execFile);

export const PASSWORD = 'a long enough password';

/** expectAccessible runs axe-core in the page (evaluated, so the CSP does not block it): zero violations. */
export async function expectAccessible(page, screen) {
  await page.evaluate(AXE_SOURCE + '\n;void 0');
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`),
    }));
  });
  assert.deepEqual(violations, [], `${screen}: axe violations\n${JSON.stringify(violations, null, 2)}`);
}

/** shot photographs the whole page, or with fullPage false what is in view (a part of a long page). */
export async function shot(page, name, { fullPage = true } = {}) {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

/** visit checks, accessibility-tests and photographs one screen. */
export async function visit(page, name, shotOptions) {
  await page.waitForLoadState('load');
  // Transitions settle before contrast is measured.
  await page.evaluate(() => document.getAnimations().forEach((a) => a.finish()));
  await expectAccessible(page, name);
  await shot(page, name, shotOptions);
}

/** code is the authenticator of the secret the setup page shows; at is a time in ms. */
export function code(secret, at = Date.now()) {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: at });
}

/** addOperator runs `streamcart operator add` against the server's database and returns the setup link. */
export async function addOperator(server, email, role = 'owner') {
  const { stdout } = await run(BIN, ['operator', 'add', email, '--role', role, '--db', server.db, '--public-url', server.url]);
  const link = /(http\S+\/checkout\/admin\/setup\?token=\S+)/.exec(stdout)?.[1];
  assert.ok(link, `no setup link in:\n${stdout}`);
  return link;
}

/**
 * signedInOperator adds an operator, sets the account up through the setup page and signs in:
 * it resolves with a page on the dashboard. The confirming code is used up, so sign-in uses the
 * next step's (the server accepts its neighbours for clock drift).
 */
export async function signedInOperator(browser, server, email, role = 'owner') {
  const link = await addOperator(server, email, role);
  const page = await newPage(browser);
  await page.goto(link);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  const secret = (await page.getByTestId('totp-secret').innerText()).trim();
  const now = Date.now();
  await page.getByLabel('Authenticator code').fill(code(secret, now));
  await page.getByRole('button', { name: 'Finish setup' }).click();
  await page.getByTestId('setup-done').waitFor();
  await page.getByRole('link', { name: 'Go to sign-in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Authenticator code').fill(code(secret, now + 30_000));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  return page;
}

/** placeOrder places a monthly Standard (pid 2) order for email through the shop's API. */
export async function placeOrder(server, email, { pid = 2, gateway = 'sandbox' } = {}) {
  const session = await api(server, '/session', { method: 'POST', body: { email } });
  assert.equal(session.status, 201, session.text);
  const placed = await api(server, '/orders', {
    method: 'POST',
    token: session.json.token,
    body: { pid, billingCycle: 'monthly', currency: 'EUR', extraConnections: 0, proxyProtection: false, gateway },
  });
  assert.ok(placed.status === 200 || placed.status === 201, placed.text);
  assert.ok(placed.json.orderId, placed.text);
  return placed.json;
}

/** payOnSandbox pays an order on the sandbox's payment page, as its buyer would. */
export async function payOnSandbox(browser, server, placed) {
  const buyerPage = await newPage(browser);
  await buyerPage.goto(new URL(placed.paymentUrl, server.url).href);
  await buyerPage.locator('[data-testid="sandbox-pay"]').click();
  await buyerPage.waitForURL((u) => !u.pathname.includes('/payments/sandbox/'));
  await buyerPage.context().close();
}

/** adminGet reads the admin API with the signed-in page's session cookie. */
export async function adminGet(page, path) {
  return page.evaluate(async (p) => {
    const r = await fetch(`/checkout/api/admin${p}`, { headers: { Accept: 'application/json' } });
    return { status: r.status, json: await r.json().catch(() => null) };
  }, path);
}

/** eventually polls check (which returns { ok } when satisfied) for up to ms. */
export async function eventually(what, check, ms = 20_000) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    last = await check();
    if (last?.ok) return last;
    await new Promise((ok) => setTimeout(ok, 250));
  }
  assert.fail(`${what}: not reached in ${ms} ms; last: ${JSON.stringify(last)}`);
}

/** orderUntil waits until the order's admin view (read through page) satisfies want. */
export function orderUntil(page, id, what, want) {
  return eventually(what, async () => {
    const r = await adminGet(page, `/orders/${encodeURIComponent(id)}`);
    return { ok: r.status === 200 && want(r.json), status: r.status, order: r.json?.order, lines: r.json?.lines };
  });
}
