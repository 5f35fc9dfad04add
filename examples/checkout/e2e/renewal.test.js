// End-to-end renewals, as the acceptance runs them on a fresh shop with the test clock:
// buy a monthly plan through the sandbox; 24 days on, the renewal invoice and its mail exist; its
// pay link pays in a fresh browser without signing in and moves the due date a month; unpaid past
// due and grace the line is Suspended; paying brings it back Active; with auto-renew cancelled no
// invoice comes for the next period and the line ends Cancelled at its due date.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BIN, startServer, launchBrowser, newPage, shot, gotoReady, persisted, api, uniqueEmail, givePassword } from './helpers.js';

const run = promisify(execFile);
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

const W = (page, id) => page.locator(`streamcart-checkout [data-testid="${id}"]`);

async function cli(...args) {
  const { stdout } = await run(BIN, [...args, '--db', server.db]);
  return stdout;
}

/** renewalRow is the `streamcart renewals list` line of a service: due, status, open invoice, auto-renew. */
async function renewalRow(serviceId) {
  const line = (await cli('renewals', 'list')).split('\n').find((l) => l.startsWith(serviceId));
  if (!line) return null;
  const [, , due, status, invoice, auto] = line.trim().split(/\s{2,}/);
  return { due, status, invoice, auto };
}

/** until polls fn (the running shop picks the clock up within seconds) until it answers truthy. */
async function until(what, fn, timeout = 40_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const got = await fn();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${server.log().slice(-3000)}`);
    await new Promise((ok) => setTimeout(ok, 250));
  }
}

/** payLinkMail is the pay link of the newest renewal mail to email for invoice. */
async function payLinkMail(email, invoice) {
  const rows = (await cli('mail', 'list')).split('\n').filter((l) => l.includes(` ${email} `));
  for (const row of rows) {
    const body = await cli('mail', 'show', row.trim().split(/\s+/)[0]);
    const link = new RegExp(`https?://\\S+/renew\\?invoice=${invoice}&t=[\\w.-]+`).exec(body)?.[0];
    if (link) return link;
  }
  return null;
}

/** payFromLink opens a pay link in a fresh browser (no session, no cookie) and pays it. */
async function payFromLink(link, shotName) {
  const page = await newPage(browser);
  await page.addInitScript(() => {
    document.addEventListener('streamcart:renewal-paid', (e) => sessionStorage.setItem('e2e:renewal-paid', JSON.stringify(e.detail)));
  });
  await gotoReady(page, link);
  await W(page, 'invoice-pay').waitFor();
  await shot(page, `${shotName}-invoice`);
  await W(page, 'invoice-pay').click();
  await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
  await page.locator('[data-testid="sandbox-pay"]').click();
  await W(page, 'renew-paid').waitFor({ timeout: 60_000 });
  await shot(page, `${shotName}-paid`);
  const paid = JSON.parse(await page.evaluate(() => sessionStorage.getItem('e2e:renewal-paid')));
  assert.deepEqual(page.problems, []);
  await page.context().close();
  return paid;
}

const days = (d) => `${d}d`;

/**
 * dailyRunDone waits for the renewal job of the shop's current day to have run: each run queues
 * the next day's, so tomorrow's job in the queue means today's is done.
 */
async function dailyRunDone() {
  const shopTime = /shop time\s+(\S+)/.exec(await cli('clock', 'show'))[1];
  const tomorrow = new Date(Date.parse(shopTime) + 86_400_000).toISOString().slice(0, 10);
  await until(`the renewal job of ${tomorrow} to be queued`, async () =>
    (await cli('jobs', 'list', '--kind', 'renewals', '--state', 'queued')).split('\n').some((l) => l.includes(` ${tomorrow} `)),
  );
}
const dayDiff = (a, b) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);

test('renewals: invoice and mail, pay link, suspension, reactivation, cancelled auto-renew', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/`);
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"]').click();
  await W(page, 'billing-cycle').selectOption('monthly');
  const email = uniqueEmail('renew');
  await W(page, 'email-input').fill(email);
  await W(page, 'email-input').blur();
  await page.waitForFunction(() => {
    const b = document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]');
    return b && !b.disabled;
  });
  await W(page, 'pay-button').click();
  await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
  await page.locator('[data-testid="sandbox-pay"]').click();
  await W(page, 'credential-username').waitFor({ timeout: 60_000 });
  const serviceId = (await persisted(page)).order.serviceid[0];
  await page.context().close();
  const first = await renewalRow(serviceId);
  assert.equal(first.status, 'Active');
  assert.equal(first.invoice, '-');

  // 24 days on: within the 7 days before the due date, the daily job invoices and mails.
  await cli('clock', 'advance', days(24));
  const invoiced = await until('the renewal invoice', async () => {
    const r = await renewalRow(serviceId);
    return r && r.invoice !== '-' ? r : null;
  });
  const link = await until('the renewal mail', () => payLinkMail(email, invoiced.invoice));
  const paid = await payFromLink(link, 'renewal');
  assert.equal(paid.serviceId, serviceId);
  assert.equal(paid.invoiceId, invoiced.invoice);
  const renewed = await until('the due date to move', async () => {
    const r = await renewalRow(serviceId);
    return r && r.due !== first.due ? r : null;
  });
  assert.ok(dayDiff(first.due, renewed.due) >= 28 && dayDiff(first.due, renewed.due) <= 31, `due ${first.due} → ${renewed.due}`);
  assert.equal(renewed.invoice, '-');

  // The next period left unpaid past its due date and the 3 grace days: Suspended.
  await cli('clock', 'advance', days(dayDiff(new Date(Date.now() + 24 * 86_400_000).toISOString(), renewed.due) + 5));
  const suspended = await until('the line to be suspended', async () => {
    const r = await renewalRow(serviceId);
    return r && r.status === 'Suspended' ? r : null;
  });
  assert.notEqual(suspended.invoice, '-');
  const link2 = await until('the overdue mail', () => payLinkMail(email, suspended.invoice));
  await payFromLink(link2, 'suspended');
  const active = await until('the line to be active again', async () => {
    const r = await renewalRow(serviceId);
    return r && r.status === 'Active' ? r : null;
  });
  assert.equal(active.invoice, '-');

  // Auto-renew cancelled by the signed-in buyer: no invoice for the next period, Cancelled at its due date.
  await givePassword(server, email, 'renew-password-1');
  const signed = await api(server, '/session', { method: 'POST', body: { email, password: 'renew-password-1' } });
  assert.equal(signed.status, 201, signed.text);
  const cancelled = await api(server, `/services/${serviceId}/cancel`, { method: 'POST', token: signed.json.token });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(cancelled.json.autoRenew, false);
  assert.equal((await renewalRow(serviceId)).auto, 'no');
  await cli('clock', 'advance', days(25));
  await dailyRunDone();
  assert.equal((await renewalRow(serviceId)).invoice, '-');
  await cli('clock', 'advance', days(10));
  await until('the line to end', async () => (await renewalRow(serviceId)) === null);
  const fresh = await api(server, '/session', { method: 'POST', body: { email, password: 'renew-password-1' } });
  const svc = await api(server, `/services/${serviceId}`, { token: fresh.json.token });
  assert.equal(svc.json.status, 'Cancelled');
});
