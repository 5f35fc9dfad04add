// The console on a phone (issue 26, point 8): every screen at 375 px, as an owner with a paid
// order, a line and a customer to show — the sign-in and setup pages, each screen of the
// navigation (read from the navigation itself, so a new screen is checked too), an order's and a
// customer's page, and the refund dialog. On each: no sideways page scroll
// (document.scrollingElement.scrollWidth <= innerWidth), every visible button inside the screen's
// width (a row's actions never behind a horizontal scroll), no inline <style>, the folded
// navigation short, and axe-core with zero violations; then every screen again in German, whose
// words are longer. CONSOLE_SCREENSHOTS=<dir> photographs each state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, startServer, uniqueEmail } from './helpers.js';
import { addOperator, eventually, adminGet, payOnSandbox, placeOrder, signedInOperator, visit } from './console-helpers.js';

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true };

let server;
let browser;
let page;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await signedInOperator(browser, server, 'owner375@example.com');
});
after(async () => {
  await page?.context().close();
  await browser?.close();
  await server?.stop();
});

/**
 * fits measures what a phone user would have to scroll sideways for: the page, and any visible
 * button. A mobile page wider than its device widens the layout viewport (innerWidth grows to fit),
 * so both are held against the device's 375 px.
 */
async function fits(p) {
  return p.evaluate((width) => {
    const scroll = document.scrollingElement.scrollWidth;
    const outside = [...document.querySelectorAll('button, a.button')]
      .filter((b) => b.checkVisibility())
      .map((b) => ({ b, r: b.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.left < -1 || r.right > width + 1))
      .map(({ b, r }) => `${b.textContent.trim() || b.getAttribute('aria-label')} (${Math.round(r.left)}–${Math.round(r.right)})`);
    return { width, inner: window.innerWidth, scroll, outside };
  }, PHONE.viewport.width);
}

/** settled waits for the screen's heading and the end of its loading. */
async function settled(p) {
  await p.getByRole('heading', { level: 1 }).waitFor();
  // A screen may load more than one part at once (the catalog: its form and its versions).
  await p.waitForFunction(
    () => ![...document.querySelectorAll('[role="status"]')].some((e) => /^(Loading|Wird geladen)…$/.test(e.textContent.trim())),
  );
}

async function check(p, name, problems) {
  await settled(p);
  const f = await fits(p);
  // The CSP (style-src 'self') refuses inline <style>: nothing may rely on one.
  const inline = await p.evaluate(() => document.querySelectorAll('style').length);
  if (inline) problems.push(`${name}: ${inline} <style> element(s) in the page`);
  if (f.scroll > f.width || f.inner > f.width)
    problems.push(
      `${name}: the page scrolls ${f.scroll - f.width} px sideways (scrollWidth ${f.scroll}, innerWidth ${f.inner}, screen ${f.width})`,
    );
  if (f.outside.length) problems.push(`${name}: buttons outside the screen: ${f.outside.join(', ')}`);
  try {
    await visit(p, `375-${name}`);
  } catch (e) {
    problems.push(e.message);
  }
}

test('every console screen at 375 px: no sideways scroll, actions in view, navigation folded, axe clean', async () => {
  const email = uniqueEmail('phone');
  const placed = await placeOrder(server, email);
  await payOnSandbox(browser, server, placed);
  const order = await eventually('the order paid and its line provisioned', async () => {
    const r = await adminGet(page, `/orders/${encodeURIComponent(placed.orderId)}`);
    return { ok: r.status === 200 && r.json.order?.status === 'active' && r.json.lines?.[0]?.status === 'Active', r };
  });
  const { customerId } = order.r.json.order;

  // The screens of the navigation, as the console lists them.
  const nav = page.getByRole('navigation', { name: 'Console' });
  const paths = await nav.getByRole('link').evaluateAll((links) => links.map((a) => new URL(a.href).pathname));
  assert.ok(paths.length >= 10, `the navigation lists ${paths.length} screens`);
  paths.push(`/checkout/admin/orders/${encodeURIComponent(placed.orderId)}`, `/checkout/admin/customers/${encodeURIComponent(customerId)}`);

  const problems = [];
  // Signed out: the sign-in page, and a setup link's first step.
  const out = await newPage(browser, PHONE);
  await out.goto(`${server.url}/checkout/admin/`);
  await out.getByRole('button', { name: 'Sign in' }).waitFor();
  await check(out, 'signin', problems);
  await out.goto(await addOperator(server, 'viewer375@example.com', 'viewer'));
  await out.getByLabel('New password').waitFor();
  await check(out, 'setup', problems);
  await out.context().close();

  const phone = await newPage(browser, PHONE);
  await phone.context().addCookies(await page.context().cookies());
  for (const path of paths) {
    await phone.goto(`${server.url}${path}`);
    const name = path.replace('/checkout/admin/', '').replace(/\/.*/, '-detail') || 'dashboard';
    // The dashboard's chart (uPlot, its own chunk) is drawn before the page is measured.
    if (name === 'dashboard') await phone.locator('.chart-plot canvas').first().waitFor();
    await check(phone, name, problems);
  }

  // The navigation is folded: a short header with a Menu button; opened, every screen is a tap
  // away; a move folds it again.
  const menu = phone.getByRole('button', { name: 'Menu' });
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  const header = await phone.locator('header.top').boundingBox();
  assert.ok(header.height <= 110, `the folded header takes ${header.height} px of height`);
  assert.equal(await phone.getByRole('navigation', { name: 'Console' }).isVisible(), false);
  await menu.click();
  const phoneNav = phone.getByRole('navigation', { name: 'Console' });
  await phoneNav.waitFor();
  await check(phone, 'menu-open', problems);
  await phoneNav.getByRole('link', { name: 'Subscriptions' }).click();
  await phone.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');

  // The refund dialog fits the screen too.
  await phone.goto(`${server.url}/checkout/admin/orders/${encodeURIComponent(placed.orderId)}`);
  await settled(phone);
  const form = phone.getByTestId('refund-form');
  await form.getByLabel('Reason').fill('asked by phone');
  await form.getByRole('button', { name: 'Refund…' }).click();
  const dialog = phone.getByRole('alertdialog', { name: `Refund order ${placed.orderId}?` });
  await dialog.waitFor();
  const box = await dialog.boundingBox();
  if (box.x < 0 || box.x + box.width > 375) problems.push(`the refund dialog spans ${box.x}–${box.x + box.width} px`);
  await check(phone, 'refund-dialog', problems);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  assert.deepEqual(phone.problems, [], 'console errors or CSP violations');
  await phone.context().close();

  // The same screens in German, the operator's remembered choice: German words are long, and
  // none of them may push the page sideways or a button out of view.
  const german = await newPage(browser, PHONE);
  await german.context().addCookies(await page.context().cookies());
  await german.addInitScript(() => localStorage.setItem('streamcart-console-locale', 'de-de'));
  for (const path of paths) {
    await german.goto(`${server.url}${path}`);
    const name = path.replace('/checkout/admin/', '').replace(/\/.*/, '-detail') || 'dashboard';
    if (name === 'dashboard') await german.locator('.chart-plot canvas').first().waitFor();
    await check(german, `de-${name}`, problems);
  }
  assert.equal(await german.evaluate(() => document.documentElement.lang), 'de-DE');
  assert.equal(await german.getByRole('button', { name: 'Menü', exact: true }).count(), 1);
  const germanHeader = await german.locator('header.top').boundingBox();
  assert.ok(germanHeader.height <= 110, `the folded German header takes ${germanHeader.height} px of height`);
  assert.deepEqual(german.problems, [], 'console errors or CSP violations in German');
  await german.context().close();
  assert.deepEqual(problems, []);
});

// On iOS, react-aria's modal prepends a <style> (overscroll-behavior: contain) so the page behind a
// dialog does not scroll; the console's CSP allows exactly that text by its hash. An iPhone (its
// platform is what react-aria reads) opens the refund dialog: no CSP violation, and the style holds.
test('a dialog on an iPhone: react-aria’s scroll lock is allowed by the console’s CSP', async () => {
  const placed = await placeOrder(server, uniqueEmail('iphone'));
  await payOnSandbox(browser, server, placed);
  await eventually('the order paid', async () => {
    const r = await adminGet(page, `/orders/${encodeURIComponent(placed.orderId)}`);
    return { ok: r.status === 200 && r.json.order?.status === 'active', r };
  });
  const phone = await newPage(browser, {
    ...PHONE,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
  });
  await phone.addInitScript(() => {
    // react-aria asks userAgentData first, which Chromium keeps as Linux whatever the user agent.
    Object.defineProperty(Navigator.prototype, 'userAgentData', { get: () => undefined });
    Object.defineProperty(Navigator.prototype, 'platform', { get: () => 'iPhone' });
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective}: ${e.sample}`));
  });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`${server.url}/checkout/admin/orders/${encodeURIComponent(placed.orderId)}`);
  await settled(phone);
  const form = phone.getByTestId('refund-form');
  await form.getByLabel('Reason').fill('asked on an iPhone');
  await form.getByRole('button', { name: 'Refund…' }).click();
  const dialog = phone.getByRole('alertdialog', { name: `Refund order ${placed.orderId}?` });
  await dialog.waitFor();
  const seen = await phone.evaluate(() => ({
    styles: document.querySelectorAll('head > style').length,
    overscroll: getComputedStyle(document.body).overscrollBehaviorY,
    violations: window.__violations,
  }));
  assert.deepEqual(seen, { styles: 1, overscroll: 'contain', violations: [] });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.deepEqual(phone.problems, [], 'console errors or CSP violations');
  await phone.context().close();
});
