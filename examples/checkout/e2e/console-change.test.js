// A line's change from the console's Subscriptions screen in Chromium (issue 26): the owner
// changes another line's connections with charge now — the dialog previews the prorated amount
// before anything is confirmed — the buyer is mailed a pay link, and paying it on the sandbox
// gives the line its connections. The suspend dialog names its effect; the Settings screen lists
// the settings in force with their source, secrets masked. axe-core on each state, at 1280 and
// 375 px. CONSOLE_SCREENSHOTS=<dir> photographs each state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BIN, api, launchBrowser, newPage, startServer, uniqueEmail } from './helpers.js';
import { adminGet, eventually, expectAccessible, payOnSandbox, placeOrder, signedInOperator, visit } from './console-helpers.js';

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

/** mailTo is the newest mail's text to email, read with `streamcart mail`. */
async function mailTo(email) {
  const run = promisify(execFile);
  const { stdout: list } = await run(BIN, ['mail', 'list', '--db', server.db]);
  const row = list.split('\n').find((l) => l.includes(` ${email} `) && /change/i.test(l));
  assert.ok(row, `no change mail for ${email} in:\n${list}`);
  const { stdout } = await run(BIN, ['mail', 'show', row.trim().split(/\s+/)[0], '--db', server.db]);
  return stdout;
}

test('change another line’s connections with charge now and pay the mailed link; suspend asks; settings', async () => {
  const email = uniqueEmail('change');
  const placed = await placeOrder(server, email);
  await payOnSandbox(browser, server, placed);
  const [serviceId] = placed.serviceIds;
  await eventually('the line listed as active', async () => {
    const r = await adminGet(page, `/services?q=${encodeURIComponent(serviceId)}`);
    return { ok: r.status === 200 && r.json.services[0]?.status === 'Active', r };
  });

  await page.goto(`${server.url}/checkout/admin/subscriptions?q=${encodeURIComponent(email)}`);
  const row = page.getByRole('row').filter({ hasText: serviceId });
  await row.getByRole('button', { name: `Change… (line ${serviceId})` }).click();
  const dialog = page.getByRole('dialog', { name: `Change line ${serviceId}` });
  await dialog.getByLabel('Connections').fill('3');
  await dialog.getByLabel('Reason (for the audit log)').fill('asked by phone');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await dialog.getByText('What this change does').waitFor();
  const confirm = dialog.getByRole('button', { name: /^Confirm: mail a pay link for €\d+\.\d\d$/ });
  await confirm.waitFor();
  const amount = /€(\d+\.\d\d)/.exec(await confirm.innerText())[1];
  await visit(page, 'subscriptions-change-preview');
  await confirm.click();
  await page
    .getByRole('status')
    .filter({ hasText: `Pay link for the change of ${serviceId} mailed to ${email}` })
    .waitFor();

  // The buyer's mail: the pay link of the change's invoice, paid on the sandbox.
  const text = await mailTo(email);
  const link = new URL(/(https?:\/\/\S+\/renew\?\S+)/.exec(text)[1]);
  const invoice = link.searchParams.get('invoice');
  const t = link.searchParams.get('t');
  const shown = await api(server, `/invoices/${invoice}?t=${encodeURIComponent(t)}`);
  assert.equal(shown.status, 200, shown.text);
  assert.equal((shown.json.total.amount / 100).toFixed(2), amount);
  const pay = await api(server, `/invoices/${invoice}/pay?t=${encodeURIComponent(t)}`, { method: 'POST', body: { gateway: 'sandbox' } });
  assert.equal(pay.status, 200, pay.text);
  await payOnSandbox(browser, server, { paymentUrl: pay.json.paymentUrl });
  await eventually('the line has 3 connections', async () => {
    const r = await adminGet(page, `/services?q=${encodeURIComponent(serviceId)}`);
    return { ok: r.json.services[0]?.maxConnections === 3, r };
  });

  // Suspend asks in a dialog naming its effect.
  await page.reload();
  await row.getByRole('button', { name: `Suspend (line ${serviceId})` }).click();
  await page.getByRole('alertdialog', { name: `Suspend line ${serviceId}?` }).waitFor();
  await visit(page, 'subscriptions-suspend-confirm');
  await page.getByRole('button', { name: 'Keep' }).click();

  // At 375 px: the change dialog fits the screen.
  const phone = await newPage(browser, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`${server.url}/checkout/admin/subscriptions?q=${encodeURIComponent(email)}`);
  await phone.getByRole('button', { name: `Change… (line ${serviceId})` }).click();
  await phone.getByRole('dialog').getByLabel('Connections').waitFor();
  await visit(phone, 'subscriptions-change-375');

  // Settings: every setting with its source, the secret key masked.
  await page.goto(`${server.url}/checkout/admin/settings`);
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  const addr = page.getByRole('row').filter({ hasText: 'STREAMCART_ADDR' });
  await addr.getByText('flag').waitFor();
  await visit(page, 'settings');
  await phone.goto(`${server.url}/checkout/admin/settings`);
  await phone.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  const scroll = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(scroll <= 0, `the settings page scrolls ${scroll} px sideways at 375 px`);
  await expectAccessible(phone, 'settings-375'); // a long page: checked, not photographed
  await phone.context().close();
});
