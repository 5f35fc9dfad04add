// The seller's console acting on the shop, end to end in Chromium, as docs/console.md describes:
// an owner refunds a paid order in full (a double click on the dialog refunds once), approves an
// order the fraud check held asking its buyer to pay (the pay-link mail listed), changes a price
// in the catalog and disables a promotion, and the shop's public API (and storefront) follow.
// Each new screen state passes axe-core. The server holds the orders of one email domain
// (STREAMCART_FRAUD_BANNED_EMAIL_DOMAINS) so the fraud check has something to hold.
// A Stripe refund and a dead provisioning job retried: console-recovery.test.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { api, gotoReady, launchBrowser, newPage, startServer, uniqueEmail, widget } from './helpers.js';
import { adminGet, eventually, orderUntil, payOnSandbox, placeOrder, signedInOperator, visit } from './console-helpers.js';

const HELD_DOMAIN = 'held.example';

let server;
let browser;
let page;
before(async () => {
  server = await startServer({ env: { STREAMCART_FRAUD_BANNED_EMAIL_DOMAINS: HELD_DOMAIN } });
  browser = await launchBrowser();
  page = await signedInOperator(browser, server, 'owner@example.com');
});
after(async () => {
  await page?.context().close();
  await browser?.close();
  await server?.stop();
});

test('refund in full from the order page: the order is refunded and its line cancelled', async () => {
  const email = uniqueEmail('refund');
  const placed = await placeOrder(server, email);
  await payOnSandbox(browser, server, placed);
  const id = placed.orderId;
  await orderUntil(
    page,
    id,
    'order active with a line',
    (o) => o.order.status === 'active' && o.lines.length === 1 && o.lines[0].status.toLowerCase() === 'active',
  );

  await page.goto(`${server.url}/checkout/admin/orders/${encodeURIComponent(id)}`);
  await page.getByRole('heading', { level: 1, name: `Order ${id}` }).waitFor();
  const form = page.getByTestId('refund-form');
  // A refund without a reason is refused in the form, nothing sent.
  await form.getByRole('button', { name: 'Refund…' }).click();
  await form.getByRole('alert').filter({ hasText: 'Say why you refund.' }).waitFor();
  await visit(page, 'order-refund-invalid');
  await form.getByLabel('Reason').fill('customer asked, e2e');
  await form.getByRole('button', { name: 'Refund…' }).click();
  // The dialog states the effect before anything is sent; a second click refunds nothing more.
  const dialog = page.getByRole('alertdialog', { name: `Refund order ${id}?` });
  await dialog.getByText('The order’s lines are switched off and cancelled.').waitFor();
  await visit(page, 'order-refund-dialog');
  await dialog.getByRole('button', { name: 'Refund €12.99' }).dblclick();
  await dialog.waitFor({ state: 'detached' });

  // The page reloads the order: refunded, the form gone, the line cancelled with nothing to act on.
  await page.getByTestId('refund-form').waitFor({ state: 'detached' });
  const facts = page.locator('main');
  await facts.getByText('refunded', { exact: true }).first().waitFor();
  const lines = page.locator('section[aria-labelledby="lines-h"]');
  const lineRow = lines.getByRole('row').filter({ hasText: 'Standard' });
  await lineRow.getByText(/^cancelled$/i).waitFor();
  assert.equal(await lineRow.getByRole('button').count(), 0, 'a cancelled line has no panel actions');
  const refunds = page.locator('section[aria-labelledby="refunds-h"]');
  await refunds.getByText('customer asked, e2e').waitFor();
  await visit(page, 'order-refunded');

  const after = await orderUntil(page, id, 'order refunded through the API', (o) => o.order.status === 'refunded');
  assert.equal(after.lines[0].status.toLowerCase(), 'cancelled');
  const listed = await adminGet(page, `/orders/${encodeURIComponent(id)}/refunds`);
  assert.equal(listed.status, 200);
  assert.equal(listed.json.refunds.length, 1, 'one refund for a double click');
  const total = listed.json.refunds.reduce((n, r) => n + r.amount.amount, 0);
  assert.equal(total, after.order.total.amount, 'refunded in full');
  assert.equal(after.order.net.amount, 0, 'nothing kept');
});

test('an order held by the fraud check, approved on Held orders, is pending again and its buyer mailed the pay link', async () => {
  const email = `buyer-${Date.now().toString(36)}@${HELD_DOMAIN}`;
  // The fraud check holds it as it is placed: nothing to pay until the owner decides.
  const placed = await placeOrder(server, email);
  const id = placed.orderId;
  await orderUntil(page, id, 'order held', (o) => o.order.status === 'fraud');

  await page.goto(`${server.url}/checkout/admin/held`);
  await page.getByRole('heading', { level: 1, name: 'Held orders' }).waitFor();
  const row = page.getByRole('row').filter({ hasText: id });
  await row.waitFor();
  await visit(page, 'held-with-order');
  await row.getByRole('button', { name: 'Approve' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Approve order ${id}?` });
  await dialog.getByText(`${email} is mailed a link to pay €12.99`, { exact: false }).waitFor();
  await visit(page, 'held-approve-dialog');
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await page.getByText(`Order ${id} is pending again`).waitFor();
  await page.getByRole('row').filter({ hasText: id }).waitFor({ state: 'detached' });
  await visit(page, 'held-approved');

  await orderUntil(page, id, 'approved order pending', (o) => o.order.status === 'pending' && o.order.invoiceStatus === 'unpaid');
  await page.goto(`${server.url}/checkout/admin/mail?q=${encodeURIComponent(email)}`);
  await page.getByText(`Your order ${id} is ready to pay`).waitFor();
  await visit(page, 'order-approved-mail');
});

test('a price changed in the catalog and a disabled promotion reach the shop', async () => {
  const price = async () => {
    const r = await api(server, '/products?currency=EUR');
    assert.equal(r.status, 200, r.text);
    return r.json.products.find((p) => p.pid === 2).pricing.monthly.amount;
  };
  assert.equal(await price(), 1299);

  // Issue 26: the price edited in the form, the draft reviewed as a diff, then published.
  await page.goto(`${server.url}/checkout/admin/catalog`);
  await page.getByRole('heading', { level: 1, name: 'Catalog' }).waitFor();
  const cell = page.getByLabel('Standard Monthly EUR');
  assert.equal(await cell.inputValue(), '12.99');
  await cell.fill('13.49');
  await page.getByRole('button', { name: 'Review changes' }).click();
  const review = page.getByTestId('catalog-review');
  await review.getByText('The draft passes the catalog check.').waitFor();
  const diff = await page.getByTestId('catalog-diff').innerText();
  assert.ok(diff.includes('+      monthly:      {EUR: "13.49", GBP: "10.99"}'), diff);
  assert.ok(diff.includes('-      monthly:      {EUR: "12.99", GBP: "10.99"}'), diff);
  await review.getByLabel('Comment (optional)').fill('Standard monthly up, e2e');
  // Photographed in view: the whole form above it is thousands of px tall.
  await review.scrollIntoViewIfNeeded();
  await visit(page, 'catalog-review', { fullPage: false });
  await review.getByRole('button', { name: 'Publish' }).click();
  await page.getByText(/Published as version \d+; the storefront shows it now\./).waitFor();
  await visit(page, 'catalog-saved');
  await eventually('new price in GET /products', async () => ({ ok: (await price()) === 1349 }), 10_000);
  // A buyer's storefront, loaded afresh, offers the new price.
  const shop = await newPage(browser);
  await eventually(
    'new price on the storefront',
    async () => {
      await gotoReady(shop, `${server.url}/checkout/`);
      const texts = await widget(shop)
        .getByText(/13\.49/)
        .allInnerTexts();
      return {
        ok: texts.length > 0,
        old: await widget(shop)
          .getByText(/12\.99/)
          .count(),
      };
    },
    10_000,
  );
  await shop.context().close();

  // One click back to the version before (after a confirmation): the old price again.
  await page
    .getByRole('button', { name: /^Roll back to version \d+$/ })
    .first()
    .click();
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  await visit(page, 'catalog-rollback-confirm', { fullPage: false });
  await dialog.getByRole('button', { name: /^Roll back to version \d+$/ }).click();
  await page.getByText(/Rolled back to version \d+ \(now version \d+\)\./).waitFor();
  await eventually('old price in GET /products', async () => ({ ok: (await price()) === 1299 }), 10_000);

  const promo = async () => (await api(server, '/promotions/WELCOME10?pid=2')).status;
  assert.equal(await promo(), 200);
  await page.goto(`${server.url}/checkout/admin/promotions`);
  await page.getByRole('heading', { level: 1, name: 'Promotions' }).waitFor();
  const row = page.getByRole('row').filter({ has: page.getByText('WELCOME10', { exact: true }) });
  await row.getByRole('button', { name: 'Disable' }).click();
  await row.getByText('disabled', { exact: true }).waitFor();
  await visit(page, 'promotions-disabled');
  await eventually('WELCOME10 no longer applies', async () => ({ ok: (await promo()) === 404 }), 10_000);
});
