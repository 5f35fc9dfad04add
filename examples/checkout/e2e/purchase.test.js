// End-to-end purchases through the reference host, the widget and the real
// API: a paid plan through the sandbox gateway, the free trial, promo codes,
// the email rule, the automatic order from landing parameters and sign-out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startServer, launchBrowser, newPage, shot, gotoReady, recordEvents, events, persisted, api, uniqueEmail } from './helpers.js';

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

/** fillEmail types an address and leaves the field, which shows the verdict at once. */
async function fillEmail(page, email) {
  await W(page, 'email-input').fill(email);
  await W(page, 'email-input').blur();
}

/** checkSuccess compares the credentials on the success page with the API's service. */
async function checkSuccess(page, label) {
  await page.waitForURL((u) => u.pathname.endsWith('/success'), { timeout: 60_000 });
  const creds = W(page, 'success-credentials');
  await W(page, 'credential-username').waitFor({ timeout: 60_000 });
  const username = (await W(page, 'credential-username').innerText()).trim();
  const password = (await W(page, 'credential-password').innerText()).trim();
  assert.ok(username && password, `${label}: credentials shown`);
  const state = await persisted(page);
  assert.ok(state?.token, `${label}: signed in`);
  const ids = state.order?.serviceid ?? [];
  assert.ok(ids.length > 0, `${label}: service ids remembered`);
  const svc = await api(server, `/services/${ids[0]}`, { token: state.token });
  assert.equal(svc.status, 200, `${label}: service readable with the session`);
  assert.equal(svc.json.username, username);
  assert.equal(svc.json.password, password);
  assert.equal(svc.json.status, 'Active');
  assert.equal(await creds.count(), 1);
  return { state, service: svc.json };
}

test('paid plan through the sandbox gateway, in English at 1280 px', async () => {
  const page = await newPage(browser);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await recordEvents(page);
  const { detail } = await gotoReady(page, `${server.url}/checkout/`);
  assert.equal(detail.signedIn, false);

  await W(page, 'plan-card').first().waitFor();
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"]').click();
  await W(page, 'billing-cycle').selectOption('monthly');
  await W(page, 'extra-connections-toggle').check();
  await W(page, 'extra-connections-count').fill('2');
  await W(page, 'proxy-protection-toggle').check();
  const email = uniqueEmail('paid');
  await fillEmail(page, email);
  await page.locator('streamcart-checkout [data-testid="gateway-option"][data-module="sandbox"]').click();

  // 12.99 + 3.00 (one extra connection) + 2.00 (proxy) = 17.99, priced by the server.
  const quote = await api(server, '/quote', {
    method: 'POST',
    body: { pid: 2, billingCycle: 'monthly', currency: 'EUR', extraConnections: 1, proxyProtection: true },
  });
  assert.equal(quote.json.total.amount, 1799);
  await page.waitForFunction(() =>
    document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="price-total"]')?.textContent.includes('17.99'),
  );
  const pay = W(page, 'pay-button');
  await page.waitForFunction(
    () => !document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]').disabled,
  );
  await shot(page, 'paid-1-index');
  await pay.click();

  // The sandbox payment page of the API, then back to the waiting view.
  await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
  assert.match(await page.locator('body').innerText(), /17[.,]99/);
  await shot(page, 'paid-2-sandbox');
  await page.locator('[data-testid="sandbox-pay"]').click();
  await page.waitForURL((u) => u.pathname.endsWith('/waiting') || u.pathname.endsWith('/success'));
  await checkSuccess(page, 'paid');
  await shot(page, 'paid-3-success');

  // Copy buttons say "Copied!"; the playlist downloads as m3u.
  await W(page, 'copy-button').first().click();
  await page.locator('streamcart-checkout [data-testid="copy-button"]', { hasText: 'Copied!' }).first().waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), W(page, 'm3u-download').click()]);
  assert.match(download.suggestedFilename(), /\.m3u$/);
  const body = await readFile(await download.path(), 'utf8');
  assert.match(body, /^#EXTM3U/);

  // The contract's events, in order, without secrets.
  const seen = await events(page);
  const types = seen.map((e) => e.type);
  for (const t of ['streamcart:order-created', 'streamcart:payment-started', 'streamcart:order-paid', 'streamcart:service-ready']) {
    assert.ok(types.includes(t), `event ${t} (${types})`);
  }
  const json = JSON.stringify(seen);
  assert.ok(!/token|password/i.test(json), 'no secret in event details');

  // The header follows the session.
  assert.equal(await page.locator('[data-testid="signout-button"]').isVisible(), true);
  await page.context().close();
});

test('free trial without payment, in German at 375 px', async () => {
  const page = await newPage(browser, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, locale: 'de-DE' });
  await gotoReady(page, `${server.url}/checkout/de-de/`);
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="1"]').click();
  await fillEmail(page, uniqueEmail('trial'));
  await page.waitForFunction(() => {
    const b = document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]');
    return b && !b.disabled;
  });
  // No payment method for a free plan, and the German interface.
  assert.equal(await W(page, 'gateway-option').count(), 0);
  assert.match(await W(page, 'pay-button').innerText(), /Test|kostenlos/i);
  await shot(page, 'trial-1-index-de-375');
  await W(page, 'pay-button').click();
  await checkSuccess(page, 'trial');
  assert.ok(new URL(page.url()).pathname.startsWith('/checkout/de-de/'), `German prefix kept (${page.url()})`);
  assert.match(await page.locator('footer.site-footer').innerText(), /Premium-IPTV-Erlebnis/);
  await shot(page, 'trial-2-success-de-375');
  await page.context().close();
});

test('promo codes: one applies, one is not for this product, one is unknown', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/`);
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"]').click();
  await W(page, 'billing-cycle').selectOption('monthly');

  // Typed in lower case, shown upper case, applied, total reduced by 10 %.
  await W(page, 'promo-input').fill('welcome10');
  assert.equal(await W(page, 'promo-input').inputValue(), 'WELCOME10');
  await W(page, 'promo-apply').click();
  await page.locator('streamcart-checkout [data-testid="promo-message"]', { hasText: 'WELCOME10' }).waitFor();
  await page.waitForFunction(() =>
    document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="price-total"]')?.textContent.includes('11.69'),
  );

  // SAVE5 applies to Premium only.
  await page.locator('streamcart-checkout [data-testid="promo-remove"]').click();
  await W(page, 'promo-input').fill('SAVE5');
  await W(page, 'promo-apply').click();
  const message = W(page, 'promo-message');
  await page.locator('streamcart-checkout [data-testid="promo-message"]', { hasText: 'not available' }).waitFor();
  assert.equal((await message.innerText()).trim(), 'This Coupon is not available for this product.');
  await page.waitForFunction(() =>
    document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="price-total"]')?.textContent.includes('12.99'),
  );

  // An unknown code shows the server's own message.
  const server404 = await api(server, '/promotions/NOSUCHCODE?pid=2');
  assert.equal(server404.status, 404);
  await W(page, 'promo-input').fill('NOSUCHCODE');
  await W(page, 'promo-apply').click();
  await page.locator('streamcart-checkout [data-testid="promo-message"]', { hasText: server404.json.message }).waitFor();
  assert.equal((await message.innerText()).trim(), server404.json.message);
  await shot(page, 'promo-rejected');
  await page.context().close();
});

test('the email rule and its exact message', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/`);
  await W(page, 'email-input').waitFor();
  // Checked only when present.
  await W(page, 'email-input').focus();
  await W(page, 'email-input').blur();
  assert.equal(await W(page, 'email-error').count(), 0);
  for (const bad of ['not-an-email', 'a@b', 'a b@c.d', '@x.y']) {
    await fillEmail(page, bad);
    await W(page, 'email-error').waitFor();
    assert.equal((await W(page, 'email-error').innerText()).trim(), 'Please enter a Valid Email.', bad);
  }
  await fillEmail(page, 'good@example.com');
  await W(page, 'email-error').waitFor({ state: 'detached' });
  // The server applies the same rule.
  const res = await api(server, '/session', { method: 'POST', body: { email: 'not-an-email' } });
  assert.equal(res.status, 400);
  assert.equal(res.json.message, 'Please enter a Valid Email.');
  await page.context().close();
});

test('automatic order from landing parameters goes straight to the payment page', async () => {
  const page = await newPage(browser);
  const email = uniqueEmail('auto');
  await page.goto(`${server.url}/checkout/?email=${encodeURIComponent(email)}&pid=2&auto_redirect=true`);
  await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
  // First paid cycle of Standard, in EUR for a visitor outside GB.
  assert.match(await page.locator('body').innerText(), /12[.,]99/);
  await page.locator('[data-testid="sandbox-pay"]').click();
  await checkSuccess(page, 'auto');
  await page.context().close();
});

test('an automatic order with a bad product stops silently on the plans', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/checkout/?email=${encodeURIComponent(uniqueEmail('autobad'))}&pid=999&auto_redirect=true`);
  await W(page, 'plan-card').first().waitFor();
  assert.equal(new URL(page.url()).pathname, '/checkout/');
  await page.context().close();
});

test('sign-out clears the session and state and goes home at the top', async () => {
  const page = await newPage(browser);
  await recordEvents(page);
  await gotoReady(page, `${server.url}/checkout/`);
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="1"]').click();
  await fillEmail(page, uniqueEmail('signout'));
  await page.waitForFunction(
    () => !document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]').disabled,
  );
  await W(page, 'pay-button').click();
  const { state } = await checkSuccess(page, 'signout');
  assert.equal(state.auth.loggedIn, true);

  const signOut = page.locator('[data-testid="signout-button"]');
  await signOut.waitFor();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await signOut.click();
  await signOut.waitFor({ state: 'hidden' });
  await page.waitForURL((u) => u.pathname === '/checkout/');
  await page.waitForFunction(() => window.scrollY === 0);

  const after = await persisted(page);
  assert.ok(!after?.token, 'token gone');
  assert.equal(after?.auth?.loggedIn ?? false, false);
  assert.equal(after?.user?.email ?? '', '');
  assert.equal(after?.order?.orderid ?? '', '');
  assert.equal(after?.waiting?.lastDate ?? null, null);
  assert.equal(await W(page, 'email-input').inputValue(), '');
  const last = (await events(page)).filter((e) => e.type === 'streamcart:session-changed').at(-1);
  assert.equal(last?.detail?.signedIn, false);
  await page.context().close();
});
