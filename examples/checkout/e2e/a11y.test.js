// Accessibility of every screen: axe-core runs in the page (it walks the widget's open shadow
// root) and any serious or critical violation fails the test with a readable list. Screens: the
// plans, the checkout form with and without errors, promo applied and rejected, the sandbox
// payment page, waiting (pending, its cancel question, cancelled), success, the fraud view,
// sign-in (link sent, errors), services, upsell and its success, resellers (password mismatch,
// success), the plans failing to load, the error view, the widget's and the host's 404, the
// host's language menu, German at 375 px and examples/plain-html. A11Y_VERBOSE=1 also prints the
// minor and moderate findings and the contrast checks axe could not decide.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { startServer, launchBrowser, newPage, gotoReady, persisted, uniqueEmail, givePassword } from './helpers.js';

const require = createRequire(import.meta.url);
const AXE_SOURCE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const FRAUD_DOMAIN = 'held.example';

let server;
let browser;
before(async () => {
  // Orders from one IP are not counted here (this file places several); one domain is held.
  // STREAMCART_EXAMPLES: this file checks examples/plain-html too.
  server = await startServer({
    env: { STREAMCART_FRAUD_BANNED_EMAIL_DOMAINS: FRAUD_DOMAIN, STREAMCART_FRAUD_MAX_ORDERS_PER_IP: '0', STREAMCART_EXAMPLES: 'true' },
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const W = (page, id) => page.locator(`streamcart-checkout [data-testid="${id}"]`);

/**
 * runAxe injects axe-core (evaluated, so the pages' strict CSP does not block it) and returns the
 * results for the whole document, shadow roots included. Colour transitions are finished first
 * so contrast is measured on the settled colours.
 */
async function runAxe(page) {
  await page.waitForLoadState('load');
  await page.evaluate(AXE_SOURCE + '\n;void 0');
  return page.evaluate(async () => {
    const settle = (root) => {
      for (const a of root.getAnimations({ subtree: true })) {
        try {
          a.finish();
        } catch {
          /* infinite animations cannot finish */
        }
      }
    };
    settle(document);
    const host = document.querySelector('streamcart-checkout');
    if (host?.shadowRoot) settle(host.shadowRoot);
    const r = await window.axe.run(document, { resultTypes: ['violations', 'incomplete'] });
    const slim = (list) =>
      list.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        helpUrl: v.helpUrl,
        nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, summary: n.failureSummary, impact: n.impact })),
      }));
    return { violations: slim(r.violations), incomplete: slim(r.incomplete) };
  });
}

const SEVERE = new Set(['serious', 'critical']);

/** describe renders violations as "screen: rule (impact) help\n  target: summary". */
function describe(screen, violations) {
  return violations
    .map((v) =>
      [
        `${screen}: ${v.id} (${v.impact}) ${v.help} — ${v.helpUrl}`,
        ...v.nodes.map(
          (n) => `    ${JSON.stringify(n.target)}\n      ${n.html.slice(0, 160)}\n      ${(n.summary ?? '').replace(/\n/g, '\n      ')}`,
        ),
      ].join('\n'),
    )
    .join('\n');
}

/**
 * expectAccessible fails on any serious or critical violation of `screen`. Colour-contrast checks
 * that axe could not decide (text over the poster backdrop, gradients) are listed for the record.
 */
async function expectAccessible(page, screen) {
  const { violations, incomplete } = await runAxe(page);
  const severe = violations.filter((v) => SEVERE.has(v.impact));
  const undecided = incomplete.filter((v) => v.id === 'color-contrast' && SEVERE.has(v.impact));
  if (process.env.A11Y_VERBOSE) {
    // Everything else axe says, for a closer look: minor and moderate findings, undecided contrast.
    const rest = violations.filter((v) => !SEVERE.has(v.impact));
    if (rest.length) console.log(describe(`${screen} (minor or moderate)`, rest));
    if (undecided.length) console.log(describe(`${screen} (contrast not decided)`, undecided));
  }
  assert.equal(severe.length, 0, `axe found serious or critical violations:\n${describe(screen, severe)}`);
  return { violations, incomplete };
}

async function enabled(page, id) {
  await page.waitForFunction((tid) => {
    const b = document.querySelector('streamcart-checkout')?.shadowRoot?.querySelector(`[data-testid="${tid}"]`);
    return b && !b.disabled;
  }, id);
}

async function totalIncludes(page, text) {
  await page.waitForFunction(
    (t) => document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="price-total"]')?.textContent.includes(t),
    text,
  );
}

test("axe really looks inside the widget's shadow root", async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/`);
  await W(page, 'plan-card').first().waitFor();
  // A planted image without a text alternative inside the shadow root must be reported, with a
  // target that goes through the host element.
  await page.evaluate(() => {
    const img = document.createElement('img');
    img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
    img.id = 'a11y-probe';
    document.querySelector('streamcart-checkout').shadowRoot.querySelector('.sc-root').append(img);
  });
  const { violations } = await runAxe(page);
  const probe = violations.find((v) => v.id === 'image-alt');
  assert.ok(probe, 'image-alt reported for the planted image');
  assert.deepEqual(
    probe.nodes.map((n) => n.target),
    [[['streamcart-checkout', '#a11y-probe']]],
  );
  await page.context().close();
});

test('plans, checkout form, errors and promo codes', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/`);
  await W(page, 'plan-card').first().waitFor();
  await W(page, 'pay-button').waitFor();
  await expectAccessible(page, 'plans and checkout form');

  // Options open: extra connections with their count, proxy protection.
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"]').click();
  await W(page, 'extra-connections-toggle').check();
  await W(page, 'proxy-protection-toggle').check();
  await W(page, 'extra-connections-count').waitFor();
  await expectAccessible(page, 'checkout form with options');

  // Pay without an email: the field says it is required; then an invalid address.
  await enabled(page, 'pay-button');
  await W(page, 'pay-button').click();
  await W(page, 'email-error').waitFor();
  await expectAccessible(page, 'checkout form, email required');
  await W(page, 'email-input').fill('not-an-email');
  await W(page, 'email-input').blur();
  await page.locator('streamcart-checkout [data-testid="email-error"]', { hasText: 'Valid Email' }).waitFor();
  await expectAccessible(page, 'checkout form, invalid email');

  await W(page, 'extra-connections-toggle').uncheck();
  await W(page, 'proxy-protection-toggle').uncheck();
  await W(page, 'billing-cycle').selectOption('monthly');
  await W(page, 'promo-input').fill('WELCOME10');
  await W(page, 'promo-apply').click();
  await page.locator('streamcart-checkout [data-testid="promo-message"]', { hasText: 'WELCOME10' }).waitFor();
  await totalIncludes(page, '11.69');
  await expectAccessible(page, 'promo applied');

  await W(page, 'promo-remove').click();
  await W(page, 'promo-input').fill('SAVE5');
  await W(page, 'promo-apply').click();
  await page.locator('streamcart-checkout [data-testid="promo-message"]', { hasText: 'not available' }).waitFor();
  await expectAccessible(page, 'promo rejected');

  // The free trial's form (no payment method, the trial note).
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="1"]').click();
  await page.waitForFunction(
    () => !document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="gateway-option"]'),
  );
  await expectAccessible(page, 'free trial form');
  await page.context().close();
});

test('sandbox payment, waiting with its cancel question, success, sign-in, services, upsell and its success', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/`);
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"]').click();
  await W(page, 'billing-cycle').selectOption('monthly');
  const email = uniqueEmail('a11y-paid');
  await W(page, 'email-input').fill(email);
  await enabled(page, 'pay-button');
  await W(page, 'pay-button').click();
  await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
  const sandboxUrl = page.url();
  await page.locator('[data-testid="sandbox-pay"]').waitFor();
  await expectAccessible(page, 'sandbox payment page');

  // Back on the checkout before paying: the order waits for its payment.
  const { order } = await persisted(page);
  await page.goto(`${server.url}/checkout/waiting?order=${order.orderid}`);
  await page.locator('streamcart-checkout [data-testid="waiting-status"][data-status="pending"]').waitFor();
  await W(page, 'cancel-order').waitFor();
  await expectAccessible(page, 'waiting (pending)');
  await W(page, 'cancel-order').click();
  await W(page, 'cancel-order-confirm').waitFor();
  await expectAccessible(page, 'waiting, cancel question');
  await page
    .locator('streamcart-checkout button', { hasText: /keep|no/i })
    .last()
    .click();

  await page.goto(sandboxUrl);
  await page.locator('[data-testid="sandbox-pay"]').click();
  await page.waitForURL((u) => u.pathname.endsWith('/success'), { timeout: 60_000 });
  await W(page, 'credential-username').waitFor({ timeout: 60_000 });
  await expectAccessible(page, 'success');

  // A paid sandbox invoice shows its "nothing to pay" page.
  await page.goto(sandboxUrl);
  await expectAccessible(page, 'sandbox page of a paid invoice');

  // Sign-in: the customer sets a password through an emailed link, then signs in with it.
  await givePassword(server, email, 'a11y-pass-1');
  await page.goto(`${server.url}/checkout/?view=services`);
  await W(page, 'signin-form').waitFor();
  await expectAccessible(page, 'sign-in by link');
  await W(page, 'signin-send').click();
  await W(page, 'signin-sent').waitFor();
  await expectAccessible(page, 'sign-in, link sent');
  await W(page, 'email-input').fill('');
  await W(page, 'signin-send').click();
  await W(page, 'email-error').waitFor();
  await expectAccessible(page, 'sign-in, email required');
  await W(page, 'signin-mode-password').click();
  await W(page, 'email-input').fill(email);
  await W(page, 'signin-password').fill('wrong-password');
  await W(page, 'signin-submit').click();
  await W(page, 'signin-error').waitFor();
  await expectAccessible(page, 'sign-in by password, refused');
  await W(page, 'signin-password').fill('a11y-pass-1');
  await W(page, 'signin-submit').click();
  await W(page, 'service-card').first().waitFor();
  await expectAccessible(page, 'services');

  // A MAC address the server's rule refuses, then the terminate question.
  await W(page, 'mac-input').first().fill('nonsense');
  await W(page, 'mac-save').first().click();
  await W(page, 'mac-error').waitFor();
  await W(page, 'service-terminate').first().click();
  await W(page, 'terminate-confirm').waitFor();
  await expectAccessible(page, 'services, MAC error and terminate question');
  await W(page, 'terminate-no').click();

  await page.goto(`${server.url}/checkout/upsell`);
  await W(page, 'upsell-slider').waitFor();
  await page.waitForFunction(() =>
    /\d/.test(document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="upsell-total"]')?.textContent ?? ''),
  );
  await expectAccessible(page, 'upsell');
  await enabled(page, 'pay-button');
  await W(page, 'pay-button').click();
  await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
  await page.locator('[data-testid="sandbox-pay"]').click();
  await W(page, 'upsell-connections').waitFor({ timeout: 60_000 });
  await expectAccessible(page, 'upsell success');
  await page.context().close();
});

test('free trial: waiting and success in German at 375 px', async () => {
  const page = await newPage(browser, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, locale: 'de-DE' });
  await gotoReady(page, `${server.url}/checkout/de-de/`);
  await W(page, 'plan-card').first().waitFor();
  await expectAccessible(page, 'plans, German, 375 px');
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="1"]').click();
  await W(page, 'email-input').fill(uniqueEmail('a11y-trial'));
  await enabled(page, 'pay-button');
  await W(page, 'pay-button').click();
  await page.waitForURL((u) => u.pathname.endsWith('/success'), { timeout: 60_000 });
  await W(page, 'credential-username').waitFor({ timeout: 60_000 });
  await expectAccessible(page, 'success, German, 375 px');
  await page.context().close();
});

test('an order held for review shows the fraud view', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/`);
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"]').click();
  await W(page, 'email-input').fill(`held-${Date.now()}@${FRAUD_DOMAIN}`);
  await enabled(page, 'pay-button');
  await W(page, 'pay-button').click();
  await W(page, 'fraud-error').waitFor({ timeout: 30_000 });
  await expectAccessible(page, 'fraud view');
  await page.context().close();
});

test('resellers: the password mismatch, then the reseller success page', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/resellers`);
  await W(page, 'plan-card').first().waitFor();
  await W(page, 'pay-button').waitFor();
  await expectAccessible(page, 'resellers');
  await W(page, 'email-input').fill(uniqueEmail('a11y-reseller'));
  await W(page, 'reseller-password').fill('reseller-pass-1');
  await W(page, 'reseller-password-confirm').fill('reseller-pass-2');
  await W(page, 'reseller-password-confirm').blur();
  await W(page, 'password-mismatch').waitFor();
  await expectAccessible(page, 'resellers, password mismatch');
  await W(page, 'reseller-password-confirm').fill('reseller-pass-1');
  await W(page, 'pay-button').click();
  await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
  await page.locator('[data-testid="sandbox-pay"]').click();
  await W(page, 'reseller-success').waitFor({ timeout: 60_000 });
  await expectAccessible(page, 'reseller success');
  await page.context().close();
});

test('a cancelled order, a failed catalogue and the error view', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/`);
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"]').click();
  await W(page, 'email-input').fill(uniqueEmail('a11y-cancel'));
  await enabled(page, 'pay-button');
  await W(page, 'pay-button').click();
  await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
  const { order } = await persisted(page);
  await page.goto(`${server.url}/checkout/waiting?order=${order.orderid}`);
  await W(page, 'cancel-order').click();
  await W(page, 'cancel-order-yes').click();
  await page.locator('streamcart-checkout [data-testid="waiting-status"][data-status="cancelled"]').waitFor();
  await expectAccessible(page, 'waiting, order cancelled');

  // The plans cannot be loaded: the retry view; an answer the widget cannot read: the error view.
  await page.route('**/checkout/api/products?**', (r) =>
    r.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ name: 'unavailable', message: 'Try later' }),
    }),
  );
  await page.goto(`${server.url}/checkout/`);
  await page.locator('streamcart-checkout .sc-center[role="alert"]').waitFor();
  await expectAccessible(page, 'plans not loaded');
  await page.unroute('**/checkout/api/products?**');
  await page.route('**/checkout/api/products?**', (r) =>
    r.fulfill({ status: 200, contentType: 'application/json', body: '{"products":"none"}' }),
  );
  await page.goto(`${server.url}/checkout/`);
  await W(page, 'error-view').waitFor();
  await expectAccessible(page, 'error view');
  await page.context().close();
});

test("not-found pages, the host's language menu and examples/plain-html", async () => {
  const page = await newPage(browser);
  const res = await page.goto(`${server.url}/checkout/does-not-exist`);
  assert.equal(res.status(), 404);
  await page.locator('[data-testid="not-found"]').waitFor();
  await expectAccessible(page, 'host 404');
  await page.goto(`${server.url}/checkout/pt-pt/gone`);
  await expectAccessible(page, 'host 404, Portuguese');

  // The widget's own not-found view (history routing to a path it does not know).
  await gotoReady(page, `${server.url}/checkout/`);
  await W(page, 'plan-card').first().waitFor();
  await page.evaluate(() => {
    history.pushState(null, '', '/checkout/nowhere');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await W(page, 'not-found').waitFor();
  await expectAccessible(page, 'widget 404');

  await page.goto(`${server.url}/checkout/`);
  await page.locator('[data-testid="language-switcher"] summary').click();
  await page.locator('[data-testid="language-option"]').first().waitFor({ state: 'visible' });
  await expectAccessible(page, 'host, language menu open');
  await page.context().close();

  const plain = await newPage(browser);
  await gotoReady(plain, `${server.url}/examples/plain-html/`);
  await W(plain, 'plan-card').first().waitFor();
  await W(plain, 'pay-button').waitFor();
  await expectAccessible(plain, 'examples/plain-html');
  await plain.context().close();
});
