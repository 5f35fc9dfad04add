// End-to-end tests of the /checkout/ reference host around the widget:
// header, footer, posters, locales, 404, reduced motion, mobile layout,
// service worker, chunk-failure reload and prefetch policy.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, shot, gotoReady } from './helpers.js';

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

const FOOTER = [
  'Premium IPTV Experience',
  'Quick Links',
  'Home',
  'Features',
  'Support',
  'Help Center',
  'Contact Us',
  'FAQ',
  'Legal',
  'Terms of Service',
  'Privacy Policy',
  'DMCA',
];
const CLAIMS = ['Free trial', '10,000+ channels', 'No credit card required', '24/7 support'];

test('host page renders header, footer, claims and the poster background', async () => {
  const page = await newPage(browser);
  const res = await page.goto(`${server.url}/checkout/`);
  assert.equal(res.status(), 200);
  assert.equal(await page.locator('meta[name="theme-color"]').getAttribute('content'), '#405db1');

  // Header.
  const logo = page.locator('header a.brand');
  assert.equal(await logo.getAttribute('href'), '/checkout/');
  await page.locator('[data-testid="language-switcher"]').waitFor();
  assert.match(await page.locator('header.site-header').innerText(), /Already have an account\?/);
  const login = page.locator('header.site-header a', { hasText: 'Login' });
  assert.ok(await login.getAttribute('href'), 'Login links to the dashboard');
  assert.equal(await page.locator('[data-testid="signout-button"]').isVisible(), false, 'sign-out hidden for visitors');

  // Currency select fed by GET /checkout/api/currencies.
  const currencies = await (await fetch(`${server.url}/checkout/api/currencies`)).json();
  const select = page.locator('[data-testid="currency-select"]');
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="currency-select"]').options.length === n,
    currencies.currencies.length,
  );
  const values = await select.locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(
    values,
    currencies.currencies.map((c) => c.code),
  );

  // Footer exactly as spec §1, and the marketing claims.
  const footer = await page.locator('footer.site-footer').innerText();
  for (const text of FOOTER) assert.ok(footer.includes(text), `footer shows ${text}`);
  assert.match(footer, new RegExp(`© ${new Date().getFullYear()} Streamcart Demo Shop`));
  const main = await page.locator('main#main').innerText();
  for (const claim of CLAIMS) assert.ok(main.includes(claim), `claim ${claim}`);

  // Two rows of 12 posters (each row followed by its loop copy), 120 s per cycle.
  assert.equal(await page.locator('.poster-row').count(), 2);
  for (const row of [0, 1]) {
    const posters = page.locator(`.poster-row[data-row="${row}"] .poster:not(.poster--loop)`);
    assert.equal(await posters.count(), 12, `row ${row} has 12 posters`);
  }
  const durations = await page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.animationName === 'poster-scroll')
      .map((a) => a.effect.getTiming().duration),
  );
  assert.deepEqual(durations, [120_000, 120_000]);
  assert.equal(await page.locator('.particle').count(), 20, '20 particles on a desktop window');
  await shot(page, 'host-desktop-en');
  assert.deepEqual(
    page.problems.filter((p) => /Content Security Policy/i.test(p)),
    [],
    'no CSP violations',
  );
  await page.context().close();
});

test('a locale prefix renders that language and the switcher keeps route and query', async () => {
  const page = await newPage(browser);
  const res = await page.goto(`${server.url}/checkout/de-de/?promocode=WELCOME10&pid=2`);
  assert.equal(res.status(), 200);
  assert.equal(await page.locator('html').getAttribute('lang'), 'de-DE');
  const footer = await page.locator('footer.site-footer').innerText();
  assert.match(footer, /Premium-IPTV-Erlebnis/);
  for (const english of ['Quick Links', 'Terms of Service', 'Privacy Policy', 'Help Center']) {
    assert.ok(!footer.includes(english), `no "${english}" on a German page`);
  }
  assert.match(await page.locator('header.site-header').innerText(), /Sie haben bereits ein Konto\?/);

  const switcher = page.locator('[data-testid="language-switcher"]');
  assert.match(await switcher.innerText(), /Deutsch/);
  await switcher.click();
  const options = switcher.locator('[data-testid="language-option"]');
  assert.deepEqual(await options.evaluateAll((os) => os.map((o) => o.dataset.code)), ['en-en', 'es-es', 'de-de', 'pt-pt', 'nl-nl']);
  assert.deepEqual(await options.allInnerTexts(), ['English', 'Español', 'Deutsch', 'Português', 'Nederlands']);
  assert.equal(await options.locator('img.flag').count(), 5, 'each entry has a flag');

  // Escape and an outside click close the dropdown.
  await page.keyboard.press('Escape');
  assert.equal(await options.first().isVisible(), false, 'Escape closes');
  await switcher.click();
  assert.equal(await options.first().isVisible(), true);
  await page.mouse.click(5, 500);
  assert.equal(await options.first().isVisible(), false, 'outside click closes');

  await switcher.click();
  await switcher.locator('[data-code="es-es"]').click();
  await page.waitForURL((u) => u.pathname === '/checkout/es-es/');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('promocode'), 'WELCOME10');
  assert.equal(url.searchParams.get('pid'), '2');
  await page.waitForFunction(() => document.documentElement.lang === 'es-ES');
  assert.match(await page.locator('footer.site-footer').innerText(), /Experiencia IPTV prémium/);
  assert.match(await switcher.innerText(), /Español/);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'browserLang');
  assert.equal(cookie?.value, 'es-es');
  assert.equal(cookie?.sameSite, 'Lax');

  await switcher.click();
  await switcher.locator('[data-code="en-en"]').click();
  await page.waitForURL((u) => u.pathname === '/checkout/');
  assert.equal(new URL(page.url()).searchParams.get('promocode'), 'WELCOME10');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.context().close();
});

test('the currency select drives the widget through setCurrency', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/checkout/`);
  const select = page.locator('[data-testid="currency-select"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="currency-select"]').options.length > 1);
  const total = page.locator('streamcart-checkout [data-testid="price-total"]');
  await page.waitForFunction(() =>
    /€/.test(document.querySelector('streamcart-checkout').shadowRoot?.querySelector('[data-testid="price-total"]')?.textContent ?? ''),
  );
  const changed = page.evaluate(
    () =>
      new Promise((ok) => {
        document.addEventListener('streamcart:currency-changed', (e) => ok(e.detail), { once: true });
      }),
  );
  await select.selectOption('USD');
  assert.deepEqual(await changed, { currency: 'USD' });
  await page.waitForFunction(() =>
    /\$/.test(document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="price-total"]')?.textContent ?? ''),
  );
  assert.match(await total.innerText(), /\$/);
  assert.equal(await select.inputValue(), 'USD');
  await page.context().close();
});

test('an unknown locale shows a globe and the raw code', async () => {
  const page = await newPage(browser);
  // After the widget's own ready event, so it cannot overwrite the test's locale.
  await gotoReady(page, `${server.url}/checkout/de-de/`);
  const switcher = page.locator('[data-testid="language-switcher"]');
  await page.evaluate(() => document.dispatchEvent(new CustomEvent('streamcart:locale-changed', { detail: { locale: 'fr-fr' } })));
  assert.match(await switcher.locator('summary img.flag').getAttribute('src'), /\/flags\/globe\.svg/);
  assert.equal((await switcher.locator('[data-lang-name]').textContent()).trim(), 'fr-fr');
  // Host strings fall back to the default locale; no option is marked current.
  assert.match(await page.locator('footer.site-footer').innerText(), /Premium IPTV Experience/);
  assert.equal(await switcher.locator('[aria-checked="true"]').count(), 0);
  await page.context().close();
});

test('the switcher on a 404 page keeps the path', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/checkout/nl-nl/gone?x=1`);
  const switcher = page.locator('[data-testid="language-switcher"]');
  await switcher.click();
  const [res] = await Promise.all([page.waitForNavigation(), switcher.locator('[data-code="pt-pt"]').click()]);
  assert.equal(res.status(), 404);
  assert.equal(new URL(page.url()).pathname + new URL(page.url()).search, '/checkout/pt-pt/gone?x=1');
  assert.match(await page.locator('[data-testid="not-found"]').innerText(), /Não foi possível encontrar esta página/);
  await page.context().close();
});

test('unknown paths answer 404 with the not-found page', async () => {
  const page = await newPage(browser);
  for (const path of ['/checkout/does-not-exist', '/checkout/de-de/nope/deeper', '/checkout/success/extra']) {
    const res = await page.goto(`${server.url}${path}`);
    assert.equal(res.status(), 404, path);
    const nf = page.locator('[data-testid="not-found"]');
    await nf.waitFor();
    if (path.startsWith('/checkout/de-de/')) continue;
    assert.match(await nf.innerText(), /This page could not be found/);
    const back = nf.getByRole('link', { name: 'Back to the home page' });
    assert.equal(await back.getAttribute('href'), '/checkout/');
    assert.ok(await page.locator('footer.site-footer').isVisible(), 'same footer as the shop');
  }
  await shot(page, 'not-found');
  await page.locator('[data-testid="not-found"] a').click();
  await page.waitForURL((u) => u.pathname === '/checkout/');
  assert.equal(await page.locator('[data-testid="not-found"]').count(), 0);
  await page.context().close();
});

test('reduced motion stops every animation', async () => {
  const page = await newPage(browser, { reducedMotion: 'reduce' });
  await page.goto(`${server.url}/checkout/`);
  await page.locator('.poster').first().waitFor({ state: 'attached' });
  await page.locator('.particle').first().waitFor({ state: 'attached' });
  const running = await page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.playState === 'running')
      .map((a) => a.animationName ?? a.transitionProperty ?? a.id),
  );
  assert.deepEqual(running, []);
  const name = await page
    .locator('.poster-track')
    .first()
    .evaluate((el) => getComputedStyle(el).animationName);
  assert.equal(name, 'none');
  await page.context().close();
});

test('mobile layout at 375 px', async () => {
  const page = await newPage(browser, { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  await page.goto(`${server.url}/checkout/`);
  await page.locator('.particle').first().waitFor({ state: 'attached' });
  assert.equal(await page.locator('.particle').count(), 10, '10 particles on mobile');
  // The rows are tilted, so read the laid-out width, not the bounding box.
  const width = await page
    .locator('.poster')
    .first()
    .evaluate((el) => parseFloat(getComputedStyle(el).width));
  assert.ok(width <= 90, `posters shrink at 480 px and below (got ${width}px)`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no horizontal scrolling (overflow ${overflow}px)`);
  for (const id of ['language-switcher', 'currency-select']) {
    assert.ok(await page.locator(`[data-testid="${id}"]`).isVisible(), `${id} visible`);
  }
  assert.ok(await page.locator('header.site-header a', { hasText: 'Login' }).isVisible());
  await shot(page, 'host-mobile-en');
  // Growing past 768 px brings the desktop particle count back.
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.waitForFunction(() => document.querySelectorAll('.particle').length === 20);
  await page.context().close();
});

test('service worker is registered for /checkout/ and never caches the API', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/checkout/`);
  const reg = await page.evaluate(async () => {
    const r = await navigator.serviceWorker.ready;
    return { scope: r.scope, script: r.active?.scriptURL };
  });
  assert.equal(reg.scope, `${server.url}/checkout/`);
  assert.equal(reg.script, `${server.url}/checkout/sw.js`);
  // Once the worker controls the page, reload and fetch through it.
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const cached = await page.evaluate(async () => {
    await fetch('/checkout/api/currencies');
    const keys = [];
    for (const name of await caches.keys()) {
      for (const req of await (await caches.open(name)).keys()) keys.push(new URL(req.url).pathname);
    }
    return keys;
  });
  assert.ok(cached.includes('/checkout/'), `shell cached (${cached})`);
  assert.ok(
    cached.every((p) => !p.startsWith('/checkout/api')),
    `no API response cached (${cached})`,
  );
  await page.context().close();
});

test('a failed chunk load reloads once, not twice within 60 s', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}/checkout/`);
  await page.waitForLoadState('load');
  await page.evaluate(() => sessionStorage.removeItem('streamcart:chunk-reload-at'));
  const fail = () =>
    page.evaluate(() => {
      const reason = new TypeError('Failed to fetch dynamically imported module: /widget/x/chunk.js');
      const promise = Promise.reject(reason);
      promise.catch(() => {});
      window.dispatchEvent(new PromiseRejectionEvent('unhandledrejection', { reason, promise }));
      return sessionStorage.getItem('streamcart:chunk-reload-at');
    });
  const [nav] = await Promise.all([page.waitForNavigation(), fail()]);
  assert.equal(nav.status(), 200);
  const first = await page.evaluate(() => sessionStorage.getItem('streamcart:chunk-reload-at'));
  assert.ok(first, 'reload time recorded');
  assert.equal(await page.evaluate(() => performance.getEntriesByType('navigation')[0].type), 'reload');
  // A second failure inside the window leaves the time untouched: no reload.
  assert.equal(await fail(), first);
  await page.context().close();
});

test('links are prefetched on intent, but not with data saver or on 2g', async () => {
  // Footer links to another origin (a closed local port: nothing leaves the machine).
  const support = await startServer({ env: { STREAMCART_SUPPORT_URL: 'http://127.0.0.1:9/support' } });
  try {
    for (const [label, connection, want] of [
      ['4g', { effectiveType: '4g', saveData: false }, 1],
      ['save-data', { effectiveType: '4g', saveData: true }, 0],
      ['2g', { effectiveType: '2g', saveData: false }, 0],
      ['slow-2g', { effectiveType: 'slow-2g', saveData: false }, 0],
    ]) {
      const page = await newPage(browser);
      await page.addInitScript((c) => {
        Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => c });
      }, connection);
      await page.goto(`${support.url}/checkout/`);
      // "Support" goes to the support site; the demo catalog's help pages are the shop's own.
      await page.waitForFunction(() => document.querySelector('footer a[data-support-link=""]').href.startsWith('http://127.0.0.1:9/'));
      await page.locator('footer a[data-support-link=""]').hover();
      await page.locator('footer a[data-support-link="faq"]').focus();
      const n = await page.locator('link[rel="prefetch"]').count();
      assert.equal(n > 0 ? 1 : 0, want, `${label}: ${n} prefetch links`);
      await page.context().close();
    }
  } finally {
    await support.stop();
  }
});
