// Issue 25, point 7 (the buyer's papercuts) and "Orders and invoices": a check for each, at 1280 and
// 375 px in English and German, photographed when E2E_SCREENSHOTS names a directory.
//   - the total and Pay stay in sight on a phone while the buyer scrolls the checkout;
//   - "Back to plans" after a failed or cancelled payment keeps the plan, cycle and extras;
//   - the sandbox page's lines are in the buyer's language;
//   - the waiting page says what it waits for, not "Loading…";
//   - "Go to your dashboard" opens My services; My services lists the order and its invoice PDF;
//   - buttons in the services and upsell views keep their distance from the boxes above them;
//   - the currency button shows the chosen currency's sign, the language button the menu's entry.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, shot, gotoReady, persisted, uniqueEmail, givePassword } from './helpers.js';

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
const sizes = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
];
const locales = [
  { code: 'en', path: '', browser: 'en-US', waiting: 'Waiting for your payment to be confirmed…', quarterly: 'Premium — quarterly' },
  {
    code: 'de',
    path: 'de-de/',
    browser: 'de-DE',
    waiting: 'Wir warten auf die Bestätigung Ihrer Zahlung …',
    quarterly: 'Premium — vierteljährlich',
  },
];

async function enabled(page, id) {
  await page.waitForFunction((tid) => {
    const b = document.querySelector('streamcart-checkout').shadowRoot.querySelector(`[data-testid="${tid}"]`);
    return b && !b.disabled && b.getAttribute('aria-disabled') !== 'true';
  }, id);
}

/** Premium, quarterly, 3 connections, proxy protection, the email: the cart every test fills. */
async function fillCart(page, email) {
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="3"]').click();
  await W(page, 'billing-cycle').selectOption('quarterly');
  await W(page, 'extra-connections-toggle').check();
  await W(page, 'extra-connections-count').fill('3');
  await W(page, 'extra-connections-count').blur();
  await W(page, 'proxy-protection-toggle').check();
  await W(page, 'email-input').fill(email);
  await W(page, 'email-input').blur();
  await enabled(page, 'pay-button');
}

async function cartIsBack(page, label) {
  await W(page, 'billing-cycle').waitFor();
  await page.waitForFunction(
    () => document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="billing-cycle"]')?.value === 'quarterly',
  );
  assert.equal(
    await page.locator('streamcart-checkout [data-testid="plan-card"][aria-checked="true"]').getAttribute('data-pid'),
    '3',
    `${label}: the plan`,
  );
  assert.equal(await W(page, 'extra-connections-toggle').isChecked(), true, `${label}: extra connections`);
  assert.equal(await W(page, 'extra-connections-count').inputValue(), '3', `${label}: the count`);
  assert.equal(await W(page, 'proxy-protection-toggle').isChecked(), true, `${label}: proxy protection`);
}

/**
 * The boxes of the widget's page that run past its right edge (a grid column as wide as its widest
 * word: a German button pushed them 14 px out on a phone), as "what right > edge".
 */
function boxesOutside(page) {
  return page.evaluate(() => {
    const root = document.querySelector('streamcart-checkout').shadowRoot;
    const edge = root.querySelector('.sc-page').getBoundingClientRect().right;
    return [...root.querySelectorAll('.sc-page .sc-card')]
      .filter((c) => c.getBoundingClientRect().right > edge + 0.5)
      .map((c) => `${c.dataset.testid ?? c.className} ${Math.round(c.getBoundingClientRect().right)} > ${Math.round(edge)}`);
  });
}

/** The vertical gap between the bottom of `above` and the top of `below`, in CSS pixels. */
async function gap(above, below) {
  const a = await above.boundingBox();
  const b = await below.boundingBox();
  assert.ok(a && b, 'both on the page');
  return b.y - (a.y + a.height);
}

for (const size of sizes) {
  for (const loc of locales) {
    const tag = `papercuts-${loc.code}-${size.viewport.width}`;

    test(`a failed and a cancelled payment keep the cart; the sandbox page speaks the buyer's language (${loc.code}, ${size.viewport.width} px)`, async () => {
      const page = await newPage(browser, { ...size, locale: loc.browser });
      await gotoReady(page, `${server.url}/checkout/${loc.path}`);
      await fillCart(page, uniqueEmail(`cart-${loc.code}-${size.name}`));
      await W(page, 'pay-button').click();
      await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
      const lines = await page.locator('[data-testid="sandbox-lines"]').innerText();
      assert.ok(lines.includes(loc.quarterly), `sandbox lines in ${loc.code}: ${lines}`);
      if (loc.code === 'de') {
        assert.ok(lines.includes('Proxy-Schutz') && lines.includes('Zusätzliche Verbindungen'), lines);
        assert.ok(!/Quarterly|Proxy protection|extra connections/.test(lines), `English left on the German page: ${lines}`);
      }
      await shot(page, `${tag}-1-sandbox`);
      await page.locator('[data-testid="sandbox-fail"]').click();
      await W(page, 'back-to-plans').waitFor({ timeout: 60_000 });
      await shot(page, `${tag}-2-failed`);
      await W(page, 'back-to-plans').click();
      await cartIsBack(page, 'after a failed payment');

      // Again, leaving the payment page without paying, then cancelling the order.
      await enabled(page, 'pay-button');
      await W(page, 'pay-button').click();
      await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
      await page.locator('[data-testid="sandbox-back"]').click();
      await W(page, 'cancel-order').click();
      await W(page, 'cancel-order-yes').click();
      await W(page, 'back-to-plans').waitFor({ timeout: 60_000 });
      await W(page, 'back-to-plans').click();
      await cartIsBack(page, 'after a cancelled order');
      await page.context().close();
    });

    test(`the waiting page says what it waits for, the dashboard opens My services with the order and its invoice (${loc.code}, ${size.viewport.width} px)`, async () => {
      const page = await newPage(browser, { ...size, locale: loc.browser, acceptDownloads: true });
      await gotoReady(page, `${server.url}/checkout/${loc.path}`);
      await fillCart(page, uniqueEmail(`paid-${loc.code}-${size.name}`));
      await W(page, 'pay-button').click();
      await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
      // The first answers about the order come late: the page says meanwhile what it waits for.
      let held = 0;
      await page.route(/\/checkout\/api\/orders\/[^/?]+(\/events)?(\?.*)?$/, async (route) => {
        if (held++ < 1) await new Promise((ok) => setTimeout(ok, 1500));
        await route.continue();
      });
      await page.locator('[data-testid="sandbox-pay"]').click();
      await page.waitForURL((u) => u.pathname.endsWith('/waiting'));
      await W(page, 'waiting-status').waitFor();
      assert.equal((await W(page, 'waiting-status').innerText()).trim(), loc.waiting);
      assert.ok(!(await page.locator('streamcart-checkout').innerText()).includes('Loading'), 'no "Loading…"');
      await shot(page, `${tag}-3-waiting`);
      await page.waitForURL((u) => u.pathname.endsWith('/success'), { timeout: 60_000 });
      await W(page, 'receipt').waitFor({ timeout: 60_000 });
      assert.deepEqual(await boxesOutside(page), [], 'boxes past the page edge on the success page');
      await shot(page, `${tag}-4-success`);

      // "Go to your dashboard" (the dashboard is the shop itself: /checkout/) opens My services.
      await W(page, 'dashboard-link').click();
      await W(page, 'services-view').waitFor();
      assert.ok(new URL(page.url()).search.includes('view=services'));
      // The marketing hero belongs to the plans: none above My services (it stood there).
      const hero = await page.locator('.hero').boundingBox();
      assert.ok(!hero || hero.height <= 1, `the hero above My services: ${JSON.stringify(hero)}`);
      const row = W(page, 'order-row').first();
      await row.waitFor({ timeout: 30_000 });
      // Each row's date shows whole, clear of its status badge (at 375 px in German the badge beside
      // it cut the date to "29. November 2").
      const cut = await W(page, 'order-row').evaluateAll((rows) =>
        rows.flatMap((r) => {
          const d = r.querySelector('[data-testid="order-date"]');
          const a = d.getBoundingClientRect();
          const b = r.querySelector('[data-testid="order-status"]').getBoundingClientRect();
          const overlap = a.right > b.left && b.right > a.left && a.bottom > b.top && b.bottom > a.top;
          return d.scrollWidth > d.clientWidth || overlap ? [`${d.textContent} (${d.clientWidth} of ${d.scrollWidth} px)`] : [];
        }),
      );
      assert.deepEqual(cut, [], 'order dates cut or under their status');
      const what = await row.locator('[data-testid="order-what"]').innerText();
      assert.ok(what.toLowerCase().includes(loc.quarterly.toLowerCase()), `the order's items: ${what}`);
      const [download] = await Promise.all([page.waitForEvent('download'), row.locator('[data-testid="order-invoice"]').click()]);
      assert.match(download.suggestedFilename(), /^SC-\d{4}-\d{6}\.pdf$/);
      await shot(page, `${tag}-5-services`);

      // The buttons below the boxes keep their distance.
      const card = W(page, 'service-card').first();
      const download3u = card.locator('[data-testid="m3u-download"]');
      if (await download3u.count()) assert.ok((await gap(card.locator('.sc-creds'), download3u)) >= 12, 'M3U button below the credentials');
      assert.ok((await gap(card, W(page, 'orders'))) >= 12, 'Orders and invoices below the card');
      // Every box stays inside the page: a German button that would not wrap pushed the service
      // card past the page's right edge on a phone.
      assert.deepEqual(await boxesOutside(page), [], 'boxes past the page edge in My services');
      await page.context().close();
    });
  }

  test(`the total and Pay stay in sight while the buyer scrolls the checkout (${size.viewport.width} px)`, async () => {
    const page = await newPage(browser, { ...size });
    await gotoReady(page, `${server.url}/checkout/`);
    await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="3"]').click();
    await W(page, 'extra-connections-toggle').scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    const bar = W(page, 'sticky-total');
    if (size.isMobile) {
      await bar.waitFor();
      const box = await bar.boundingBox();
      const view = page.viewportSize();
      assert.ok(box && box.y >= 0 && box.y + box.height <= view.height + 1, `the bar is on screen: ${JSON.stringify(box)}`);
      assert.ok(view.height - (box.y + box.height) < 4, 'the bar sits at the bottom');
      assert.match(await W(page, 'sticky-total-amount').innerText(), /€/);
      assert.ok(await W(page, 'sticky-pay').isVisible());
      await shot(page, `papercuts-sticky-${size.viewport.width}`);
      // At the summary's own Pay button, the bar steps aside.
      await W(page, 'pay-button').scrollIntoViewIfNeeded();
      await page.waitForFunction(
        () => !document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="sticky-total"]'),
      );
    } else {
      // Beside the form the summary stays in sight itself; no bar.
      assert.equal(await bar.isVisible().catch(() => false), false);
    }
    await page.context().close();
  });

  test(`the upsell view keeps its buttons off the boxes above them (${size.viewport.width} px)`, async () => {
    const page = await newPage(browser, { ...size });
    await gotoReady(page, `${server.url}/checkout/`);
    await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"]').click();
    const email = uniqueEmail(`upsell-space-${size.name}`);
    await W(page, 'email-input').fill(email);
    await W(page, 'email-input').blur();
    await enabled(page, 'pay-button');
    await W(page, 'pay-button').click();
    await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
    await page.locator('[data-testid="sandbox-pay"]').click();
    await W(page, 'receipt').waitFor({ timeout: 60_000 });
    await givePassword(server, email, 'upsell-space-1');
    await page.goto(`${server.url}/checkout/upsell`);
    await W(page, 'signin-form').waitFor();
    await W(page, 'signin-mode-password').click();
    await W(page, 'email-input').fill(email);
    await W(page, 'signin-password').fill('upsell-space-1');
    await W(page, 'signin-submit').click();
    await W(page, 'upsell-slider').waitFor();
    await enabled(page, 'pay-button');
    const total = W(page, 'upsell-after');
    assert.ok((await gap(total, W(page, 'pay-button'))) >= 12, 'Pay below the total');
    const cards = page.locator('streamcart-checkout .sc-card');
    for (let i = 1; i < (await cards.count()); i++) {
      assert.ok((await gap(cards.nth(i - 1), cards.nth(i))) >= 12, `card ${i} below card ${i - 1}`);
    }
    await shot(page, `papercuts-upsell-${size.viewport.width}`);

    // My services (a proven session): the Add connections button keeps its distance from the card.
    await page.goto(`${server.url}/checkout/?view=services`);
    await W(page, 'upsell-link').waitFor();
    assert.ok((await gap(W(page, 'service-card').last(), W(page, 'upsell-link'))) >= 12, 'Add connections below the cards');
    const managed = W(page, 'service-card').first();
    assert.ok(
      (await gap(managed.locator('.sc-renewal .sc-service-actions'), managed.locator('.sc-creds'))) >= 12,
      'credentials below Renew now',
    );
    assert.ok(
      (await gap(managed.locator('[data-testid="m3u-download"]'), managed.locator('form.sc-field'))) >= 12,
      'MAC form below the M3U button',
    );
    assert.ok(
      (await gap(managed.locator('form.sc-field'), managed.locator('[data-testid="service-restart"]'))) >= 12,
      'Restart below the MAC form',
    );
    await W(page, 'order-row').first().waitFor();
    await shot(page, `papercuts-services-proven-${size.viewport.width}`);
    await page.context().close();
  });

  test(`the currency button shows the chosen currency's sign, the language button the menu's entry (${size.viewport.width} px)`, async () => {
    const page = await newPage(browser, { ...size, locale: 'en-US' });
    await gotoReady(page, `${server.url}/checkout/en-us/`);
    const flag = page.locator('[data-testid="language-switcher"] [data-lang-flag]');
    assert.match(await flag.getAttribute('src'), /flags\/gb\.svg/);
    assert.equal(await page.locator('[data-testid="language-switcher"] [data-lang-name]').textContent(), 'English');
    assert.equal(
      await page.locator('[data-testid="language-option"][aria-checked="true"]').getAttribute('data-locale'),
      'en',
      'the menu checks the entry the button shows',
    );
    const select = page.locator('[data-testid="currency-select"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="currency-select"] option').length > 1);
    assert.equal(await page.locator('[data-testid="currency-symbol"]').textContent(), '€');
    await select.selectOption('GBP');
    await page.waitForFunction(() => document.querySelector('[data-testid="currency-symbol"]')?.textContent === '£');
    if (!size.isMobile) assert.ok(await page.locator('[data-testid="currency-symbol"]').isVisible());
    await page.waitForFunction(() =>
      document
        .querySelector('streamcart-checkout')
        .shadowRoot.querySelector('[data-testid="plan-card"][data-pid="3"]')
        ?.textContent.includes('£'),
    );
    await shot(page, `papercuts-header-${size.viewport.width}`);
    await page.context().close();
  });
}

test('the persisted cart is the tab’s, not the cookie’s', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/`);
  const p = await persisted(page);
  assert.ok(!p || !('cart' in p), 'the checkout cookie keeps what spec §3 names only');
  await page.context().close();
});
