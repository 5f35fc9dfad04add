// The legal pages (issue 25): the footer's Terms link opens the catalog's rendered page in the
// page's language, the page passes axe-core with no violations under the storefront's CSP, and
// a path that is nothing gets the branded 404, at 1280 and 375 px in English and German.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { startServer, launchBrowser, newPage, shot, api } from './helpers.js';

const require = createRequire(import.meta.url);
const AXE_SOURCE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

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

/** axeViolations runs axe-core in the page (evaluated, so the CSP does not block it). */
async function axeViolations(page) {
  await page.waitForLoadState('load');
  await page.evaluate(AXE_SOURCE + '\n;void 0');
  return page.evaluate(async () => {
    for (const a of document.getAnimations()) {
      try {
        a.finish();
      } catch {
        /* infinite animations cannot finish */
      }
    }
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help} ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`);
  });
}

const LOCALES = [
  {
    name: 'en',
    home: '/checkout/',
    legal: '/checkout/legal/terms',
    link: 'Terms of Service',
    title: 'Terms of Service',
    lang: /^en(-US)?$/,
  },
  {
    name: 'de',
    home: '/checkout/de-de/',
    legal: '/checkout/de-de/legal/terms',
    link: 'Nutzungsbedingungen',
    title: 'Nutzungsbedingungen',
    lang: /^de-DE$/,
  },
];
const SIZES = [
  { name: '1280', viewport: { width: 1280, height: 900 } },
  { name: '375', viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
];

for (const loc of LOCALES) {
  for (const size of SIZES) {
    test(`footer Terms opens the rendered terms (${loc.name}, ${size.name} px), axe clean`, async () => {
      const page = await newPage(browser, { viewport: size.viewport, isMobile: size.isMobile, hasTouch: size.hasTouch });
      await page.goto(`${server.url}${loc.home}`);
      const terms = page.locator('footer.site-footer a[data-support-link="terms"]');
      assert.equal(await terms.innerText(), loc.link);
      assert.equal(await terms.getAttribute('href'), loc.legal);
      const year = String(new Date().getFullYear());
      assert.match(await page.locator('footer .copyright').innerText(), new RegExp(`© ${year} Streamcart Demo Shop`));
      // The link ready (in view, visible), then the click and the navigation it starts waited for
      // together. The navigation counts once the terms' document commits, not at its load event,
      // which a loaded machine held past waitForURL's 30 s; the page's own content is awaited next.
      await terms.scrollIntoViewIfNeeded();
      await terms.waitFor({ state: 'visible' });
      await Promise.all([page.waitForURL(`**${loc.legal}`, { waitUntil: 'commit' }), terms.click()]);

      const doc = page.locator('[data-testid="legal-page"]');
      await doc.locator('h1').waitFor();
      assert.equal(await doc.locator('h1').innerText(), loc.title);
      assert.match(await page.locator('html').getAttribute('lang'), loc.lang);
      assert.match(await page.title(), new RegExp(`^${loc.title} · Streamcart Demo Shop$`));
      // The links between pages stay in the page's language.
      assert.equal(await doc.locator('a[href="refunds"]').count(), 1);
      // The host's script runs there too: the copyright line keeps its year in the page's language.
      await page.waitForLoadState('load');
      assert.match(await page.locator('footer .copyright').innerText(), new RegExp(`© ${year} Streamcart Demo Shop`));
      // Nothing overflows sideways on a phone.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `horizontal overflow ${overflow}px`);
      await shot(page, `legal-terms-${loc.name}-${size.name}`);

      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(page.problems, [], 'no console errors (CSP included)');
      await page.context().close();
    });

    test(`an unknown path gets the branded 404 (${loc.name}, ${size.name} px)`, async () => {
      const page = await newPage(browser, {
        viewport: size.viewport,
        isMobile: size.isMobile,
        hasTouch: size.hasTouch,
        locale: loc.name === 'de' ? 'de-DE' : 'en-US',
      });
      for (const path of ['/nope', `${loc.home}legal/nope`]) {
        const res = await page.goto(`${server.url}${path}`);
        assert.equal(res.status(), 404, path);
        await page.locator('[data-testid="not-found"]').waitFor();
        assert.match(await page.locator('html').getAttribute('lang'), loc.lang, path);
      }
      await shot(page, `not-found-${loc.name}-${size.name}`);
      assert.deepEqual(await axeViolations(page), []);
      await page.context().close();
    });
  }
}

// A buyer signed in at the shop opens a legal page or the 404 (pages without the widget): the
// header offers Sign out, not "Already have an account? Login" (it did), and Sign out there ends
// the session as the widget's does: the token no longer opens anything, the cookie is gone.
test('a signed-in buyer sees Sign out on the pages without the widget, and signs out there', async () => {
  const session = await api(server, '/session', { method: 'POST', body: { email: 'legal-header@example.com' } });
  assert.equal(session.status, 201, session.text);
  const token = session.json.token;
  const page = await newPage(browser);
  const { hostname } = new URL(server.url);
  const cookie = encodeURIComponent(JSON.stringify({ auth: { loggedIn: true, user: { userid: session.json.userId } }, token }));
  await page.context().addCookies([{ name: 'checkout', value: cookie, domain: hostname, path: '/', sameSite: 'Lax' }]);
  for (const path of ['/checkout/legal/terms', '/nope']) {
    await page.goto(`${server.url}${path}`);
    await page.locator('[data-testid="signout-button"]').waitFor({ state: 'visible' });
    assert.equal(await page.locator('header .account').isVisible(), false, `${path}: Login beside Sign out`);
  }
  assert.equal((await api(server, '/orders', { token })).status, 200, 'the session works before');
  await page.locator('[data-testid="signout-button"]').click();
  await page.locator('header .account').waitFor({ state: 'visible' });
  assert.equal(await page.locator('[data-testid="signout-button"]').isVisible(), false);
  assert.equal(
    (await page.context().cookies()).find((c) => c.name === 'checkout'),
    undefined,
    'the cookie cleared',
  );
  assert.equal((await api(server, '/orders', { token })).status, 401, 'the session ended');
  await page.reload();
  await page.locator('header .account').waitFor({ state: 'visible' });
  // The 404 page's own status is the one resource "failing" (twice: opened and reloaded).
  assert.deepEqual(
    page.problems.filter((p) => !p.includes('status of 404')),
    [],
  );
  await page.context().close();
});
