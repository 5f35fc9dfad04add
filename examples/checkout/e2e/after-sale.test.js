// End-to-end after the sale, through the reference host, the widget and the real API: the
// extra-connection upsell (max connections 1 → 3), the reseller flow to its success page, the
// "Not the same password" message (client and server) and the reseller success guard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, shot, gotoReady, persisted, api, uniqueEmail, givePassword } from './helpers.js';

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

async function enabled(page, id) {
  await page.waitForFunction((tid) => {
    const b = document.querySelector('streamcart-checkout').shadowRoot.querySelector(`[data-testid="${tid}"]`);
    return b && !b.disabled;
  }, id);
}

/** paySandbox pays on the API's sandbox page and waits to be back on the checkout. */
async function paySandbox(page, back) {
  await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
  await page.locator('[data-testid="sandbox-pay"]').click();
  await page.waitForURL(back, { timeout: 60_000 });
}

test('upsell: a customer signs in with a password and buys two extra connections (1 → 3)', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/`);
  // Buy Premium (1 connection) through the sandbox.
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"]').click();
  await W(page, 'billing-cycle').selectOption('monthly');
  const email = uniqueEmail('upsell');
  await W(page, 'email-input').fill(email);
  await W(page, 'email-input').blur();
  await enabled(page, 'pay-button');
  await W(page, 'pay-button').click();
  await paySandbox(page, (u) => u.pathname.endsWith('/success'));
  await W(page, 'credential-username').waitFor({ timeout: 60_000 });
  const bought = await persisted(page);
  const serviceId = bought.order.serviceid[0];
  const before = await api(server, `/services/${serviceId}`, { token: bought.token });
  assert.equal(before.json.maxConnections, 1);

  // The buyer has no password yet: an emailed sign-in link proves the address and sets one.
  await givePassword(server, email, 'upsell-pass-1');

  // An email-only session is asked to sign in; the password proves it.
  await page.goto(`${server.url}/checkout/upsell`);
  await W(page, 'signin-form').waitFor();
  await W(page, 'signin-mode-password').click();
  await W(page, 'email-input').fill(email);
  await W(page, 'signin-password').fill('upsell-pass-1');
  await W(page, 'signin-submit').click();

  const slider = W(page, 'upsell-slider');
  await slider.waitFor();
  assert.equal(await slider.inputValue(), '1');
  await page.locator(`streamcart-checkout [data-testid="upsell-service"][data-service-id="${serviceId}"]`).click();
  await slider.fill('2');
  await page.waitForFunction(() =>
    document
      .querySelector('streamcart-checkout')
      .shadowRoot.querySelector('[data-testid="upsell-after"]')
      ?.textContent.includes('3 connections'),
  );
  const quote = await api(server, '/upsell/quote', {
    method: 'POST',
    token: (await persisted(page)).token,
    body: { serviceId, extraQuantity: 2 },
  });
  assert.equal(quote.status, 200, quote.text);
  await page.waitForFunction(
    (amount) =>
      document
        .querySelector('streamcart-checkout')
        .shadowRoot.querySelector('[data-testid="upsell-total"]')
        ?.textContent.replace(',', '.')
        .includes(amount),
    (quote.json.total.amount / 100).toFixed(2),
  );
  await shot(page, 'upsell-1-slider');
  await enabled(page, 'pay-button');
  await W(page, 'pay-button').click();
  await paySandbox(page, (u) => u.pathname.endsWith('/success') && u.searchParams.get('upsell') === serviceId);
  await W(page, 'upsell-connections').waitFor({ timeout: 60_000 });
  assert.equal((await W(page, 'upsell-connections').innerText()).trim(), '3');
  await shot(page, 'upsell-2-success');
  const afterward = await api(server, `/services/${serviceId}`, { token: (await persisted(page)).token });
  assert.equal(afterward.json.maxConnections, 3);
  await page.context().close();
});

test('resellers: second plan pre-selected, "Not the same password", payment, success page, guard', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/resellers`);
  await W(page, 'plan-card').first().waitFor();
  const checked = page.locator('streamcart-checkout [data-testid="plan-card"][aria-checked="true"]');
  assert.equal(await checked.getAttribute('data-pid'), '11');
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="10"]').click();

  const email = uniqueEmail('reseller');
  await W(page, 'email-input').fill(email);
  await W(page, 'existing-reseller-no').click();
  await W(page, 'reseller-password').fill('reseller-pass-1');
  await W(page, 'reseller-password-confirm').fill('reseller-pass-2');
  await W(page, 'reseller-password-confirm').blur();
  await W(page, 'password-mismatch').waitFor();
  assert.equal((await W(page, 'password-mismatch').innerText()).trim(), 'Not the same password');
  await shot(page, 'reseller-1-mismatch');

  // The server says the same (422 password_mismatch).
  const session = await api(server, '/session', { method: 'POST', body: { email: uniqueEmail('mismatch') } });
  const refused = await api(server, '/resellers/orders', {
    method: 'POST',
    token: session.json.token,
    body: { pid: 10, password: 'a-password-1', confirmPassword: 'a-password-2' },
  });
  assert.equal(refused.status, 422);
  assert.equal(refused.json.name, 'password_mismatch');
  assert.equal(refused.json.message, 'Not the same password');

  await W(page, 'reseller-password-confirm').fill('reseller-pass-1');
  assert.equal(await W(page, 'password-mismatch').count(), 0);
  await W(page, 'pay-button').click();
  await paySandbox(page, (u) => u.pathname.startsWith('/checkout/resellers/'));
  await W(page, 'reseller-success').waitFor({ timeout: 60_000 });
  const url = new URL(page.url());
  assert.equal(url.pathname, '/checkout/resellers/success');
  const serviceId = url.searchParams.get('serviceid');
  assert.ok(serviceId, 'serviceid in the success URL');
  const state = await persisted(page);
  const svc = await api(server, `/resellers/services/${serviceId}`, { token: state.token });
  assert.equal(svc.json.status, 'Active');
  assert.equal((await api(server, '/resellers/me', { token: state.token })).json.isReseller, true);
  await shot(page, 'reseller-2-success');

  // Guard (spec §4): signed in, no serviceid → /resellers; an unknown reseller product → /resellers.
  await page.goto(`${server.url}/checkout/resellers/success`);
  await W(page, 'resellers-view').waitFor();
  assert.equal(new URL(page.url()).pathname, '/checkout/resellers');
  await page.goto(`${server.url}/checkout/de-de/resellers/success?serviceid=nope`);
  await W(page, 'resellers-view').waitFor();
  assert.equal(new URL(page.url()).pathname, '/checkout/de-de/resellers');
  assert.deepEqual(
    page.problems.filter((p) => !/404|Failed to load resource/.test(p)),
    [],
  );
  await page.context().close();
});
