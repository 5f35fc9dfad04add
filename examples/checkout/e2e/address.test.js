// The README's address works (issue 25): a buyer who starts on http://localhost:PORT/checkout/ (the
// shop listens on 127.0.0.1, as `make run`'s) is told what renews before paying, pays on the
// sandbox and lands on the same origin with the credentials on screen, then sees that purchase in
// "My services" without signing in again. The header shows Login or Sign out, never both, and
// Login opens the sign-in form (no external dashboard is set). Photographed at 1280 and 375 px, in
// English and German, when E2E_SCREENSHOTS names a directory.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, shot, gotoReady, persisted, uniqueEmail } from './helpers.js';

let server;
let browser;
let local; // the server's address under the README's name: http://localhost:PORT
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  local = server.url.replace('://127.0.0.1:', '://localhost:');
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const W = (page, id) => page.locator(`streamcart-checkout [data-testid="${id}"]`);
const login = (page) => page.locator('.account-login');
const signOut = (page) => page.locator('[data-testid="signout-button"]');

/** The header never offers both: exactly one of Login and Sign out is visible. */
async function oneOfLoginSignOut(page, label) {
  const [l, s] = [await login(page).isVisible(), await signOut(page).isVisible()];
  assert.ok(l !== s, `${label}: Login ${l ? 'shown' : 'hidden'}, Sign out ${s ? 'shown' : 'hidden'}: want exactly one`);
  return s;
}

const sizes = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
];
const locales = [
  {
    code: 'en',
    path: '',
    browser: 'en-US',
    renews: /Then €[\d.]+ every 3 months until you cancel\./,
    consent: /By paying, you agree to the Terms of Service/,
  },
  {
    code: 'de',
    path: 'de-de/',
    browser: 'de-DE',
    renews: /Danach [\d,]+\s€ alle 3 Monate, bis Sie kündigen\./,
    consent: /Mit der Zahlung stimmen Sie den/,
  },
];

for (const size of sizes) {
  for (const loc of locales) {
    test(`starting on localhost, a buyer pays and lands on localhost with the credentials (${loc.code}, ${size.viewport.width} px)`, async () => {
      const page = await newPage(browser, { ...size, locale: loc.browser });
      const start = `${local}/checkout/${loc.path}`;
      const { detail } = await gotoReady(page, start);
      assert.equal(detail.signedIn, false);
      assert.equal(await oneOfLoginSignOut(page, 'visitor'), false);
      const tag = `address-${loc.code}-${size.viewport.width}`;

      await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="3"]').click();
      await W(page, 'plan-terms').first().waitFor();
      await W(page, 'billing-cycle').selectOption('quarterly');
      await W(page, 'proxy-protection-toggle').check();
      await W(page, 'email-input').fill(uniqueEmail(`address-${loc.code}-${size.name}`));
      await W(page, 'email-input').blur();
      // Before paying: what is due today and what renews, and the consent line with the terms.
      await page.waitForFunction(
        () => !document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]').disabled,
      );
      await page.waitForFunction(
        (re) =>
          new RegExp(re).test(
            document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="renewal-terms"]')?.textContent ?? '',
          ),
        loc.renews.source,
      );
      assert.match(await W(page, 'consent-line').innerText(), loc.consent);
      await shot(page, `${tag}-1-index`);
      await W(page, 'pay-button').click();

      // The sandbox page is on the shop's one address, localhost; Pay brings the buyer back to
      // the origin they started on.
      await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
      assert.equal(new URL(page.url()).origin, local);
      await shot(page, `${tag}-2-sandbox`);
      await page.locator('[data-testid="sandbox-pay"]').click();
      await page.waitForURL((u) => u.pathname.endsWith('/success'), { timeout: 60_000 });
      assert.equal(new URL(page.url()).origin, local, 'back on the origin the buyer started on');
      await W(page, 'credential-username').waitFor({ timeout: 60_000 });
      assert.ok((await W(page, 'credential-username').innerText()).trim(), 'username on screen');
      assert.ok((await W(page, 'credential-password').innerText()).trim(), 'password on screen');
      assert.ok(!(await page.locator('streamcart-checkout').innerText()).includes('session has expired'));
      assert.equal(await oneOfLoginSignOut(page, 'buyer'), true);
      await shot(page, `${tag}-3-success`);

      // My services shows that purchase to the buyer's session, without signing in.
      await W(page, 'manage-services').click();
      await W(page, 'services-view').waitFor();
      await W(page, 'service-card').first().waitFor();
      assert.ok((await W(page, 'credential-username').first().innerText()).trim(), 'the purchase’s line in My services');
      assert.equal(await W(page, 'signin-form').count(), 0, 'no sign-in asked');
      await W(page, 'services-purchase-only').waitFor();
      assert.equal(await oneOfLoginSignOut(page, 'services'), true);
      await shot(page, `${tag}-4-services`);

      // Signed out, Login is back alone and opens the sign-in form (no external dashboard set).
      if (size.isMobile) await signOut(page).scrollIntoViewIfNeeded();
      await signOut(page).click();
      await page.waitForFunction(() => document.documentElement.dataset.signedIn === 'false');
      assert.equal(await oneOfLoginSignOut(page, 'signed out'), false);
      assert.equal((await persisted(page))?.token ?? '', '');
      await login(page).click();
      await W(page, 'signin-form').waitFor();
      assert.equal(new URL(page.url()).origin, local);
      assert.equal(await oneOfLoginSignOut(page, 'sign-in form'), false);
      await shot(page, `${tag}-5-signin`);
      await page.context().close();
    });
  }
}
