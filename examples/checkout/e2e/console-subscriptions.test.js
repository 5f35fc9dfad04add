// The console's Subscriptions screen in Chromium at 1280 and 375 px: a sandbox-paid line found by
// its buyer's email, its auto-renew cancelled after the confirmation naming the effect (the line
// then shows "off" and offers to resume, the buyer's service says autoRenew false), the CSV link
// carrying the filters and answering the filtered list. axe-core with zero violations on each
// state, no horizontal page scroll at 375 px. CONSOLE_SCREENSHOTS=<dir> photographs each state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, startServer, uniqueEmail } from './helpers.js';
import { adminGet, eventually, payOnSandbox, placeOrder, signedInOperator, visit } from './console-helpers.js';

let server;
let browser;
let page;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await signedInOperator(browser, server, 'owner@example.com');
});
after(async () => {
  await page?.context().close();
  await browser?.close();
  await server?.stop();
});

test('subscriptions: find a line by email, cancel its auto-renew, download the CSV, at 1280 and 375 px', async () => {
  const email = uniqueEmail('subs');
  const placed = await placeOrder(server, email);
  await payOnSandbox(browser, server, placed);
  const [serviceId] = placed.serviceIds;
  await eventually('the line listed as active', async () => {
    const r = await adminGet(page, `/services?q=${encodeURIComponent(serviceId)}`);
    return { ok: r.status === 200 && r.json.services[0]?.status === 'Active', r };
  });

  await page.goto(`${server.url}/checkout/admin/subscriptions`);
  await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
  await page.getByLabel('Search').fill(email);
  await page.getByLabel('Auto-renew').selectOption('true');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL((u) => u.searchParams.get('q') === email && u.searchParams.get('autoRenew') === 'true');
  const row = page.getByRole('row').filter({ hasText: serviceId });
  await row.getByRole('link', { name: email }).waitFor();
  assert.equal(await page.locator('table tbody tr').count(), 1);
  await visit(page, 'subscriptions-found');

  // The CSV link carries the filters; the browser's fetch of it (with the cookie) is the same list.
  const csvHref = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  assert.match(csvHref, /^\/checkout\/api\/admin\/services\.csv\?/);
  const csv = await page.evaluate(
    (h) => fetch(h).then(async (r) => ({ status: r.status, type: r.headers.get('content-type'), text: await r.text() })),
    csvHref,
  );
  assert.equal(csv.status, 200);
  assert.match(csv.type, /^text\/csv/);
  const lines = csv.text.trim().split('\r\n');
  assert.equal(lines.length, 2, csv.text);
  assert.ok(lines[1].startsWith(serviceId + ','), csv.text);

  // Cancel auto-renew: the first press asks, naming the effect; the confirmation does it.
  await row.getByRole('button', { name: 'Cancel auto-renew' }).click();
  const confirm = row.getByRole('button', { name: /^Confirm: no more renewals, the line ends on \d{4}-\d{2}-\d{2}$/ });
  await confirm.waitFor();
  await visit(page, 'subscriptions-confirm');
  await confirm.click();
  await page
    .getByRole('status')
    .filter({ hasText: `Auto-renew of ${serviceId} cancelled` })
    .waitFor();
  const listed = await adminGet(page, `/services?q=${encodeURIComponent(serviceId)}`);
  assert.equal(listed.json.services[0].autoRenew, false);

  // At 375 px: the same screen, no horizontal page scroll, accessible.
  const phone = await newPage(browser, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`${server.url}/checkout/admin/subscriptions?q=${encodeURIComponent(email)}`);
  await phone.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
  await phone.getByRole('row').filter({ hasText: serviceId }).getByRole('button', { name: 'Resume auto-renew' }).waitFor();
  const scroll = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(scroll <= 0, `the page scrolls ${scroll} px sideways at 375 px`);
  await visit(phone, 'subscriptions-375');
  await phone.context().close();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/checkout/admin/subscriptions?q=${encodeURIComponent(email)}`);
  await page.getByRole('row').filter({ hasText: serviceId }).getByRole('button', { name: 'Resume auto-renew' }).waitFor();
  await visit(page, 'subscriptions');
});
