// The console on a laptop (issue 26, point 8): every screen at 1280 px in each of the console's
// languages, as an owner with paid orders and lines to show. No table may scroll sideways inside
// its box (German words are long: headers wrap, ids are abbreviated, a subscription's facts share
// cells), and the page itself never scrolls sideways. Dates are typed in the language's own order
// (react-aria's DateField): dd.mm.yyyy in German; in English, US included, yyyy-mm-dd as the console
// shows days everywhere (never the browser's mm/dd/yyyy).
// CONSOLE_SCREENSHOTS=<dir> photographs each screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPage, startServer, uniqueEmail } from './helpers.js';
import { adminGet, eventually, payOnSandbox, placeOrder, shot, signedInOperator } from './console-helpers.js';

const LAPTOP = { viewport: { width: 1280, height: 900 } };
const LOCALES = ['en', 'de-de', 'es-es', 'nl-nl', 'pt-pt'];

let server;
let browser;
let page;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await signedInOperator(browser, server, 'owner1280@example.com');
});
after(async () => {
  await page?.context().close();
  await browser?.close();
  await server?.stop();
});

test('every console screen at 1280 px in every language: no table scrolls sideways', async () => {
  const placed = [];
  for (const name of ['laptop-a', 'laptop-b']) {
    const p = await placeOrder(server, uniqueEmail(name));
    await payOnSandbox(browser, server, p);
    placed.push(p);
  }
  const order = await eventually('the orders paid and their lines provisioned', async () => {
    const r = await adminGet(page, `/orders/${encodeURIComponent(placed[1].orderId)}`);
    return { ok: r.status === 200 && r.json.lines?.[0]?.status === 'Active', r };
  });
  const nav = page.getByRole('navigation', { name: 'Console' });
  const paths = await nav.getByRole('link').evaluateAll((links) => links.map((a) => new URL(a.href).pathname));
  paths.push(
    `/checkout/admin/orders/${encodeURIComponent(placed[1].orderId)}`,
    `/checkout/admin/customers/${encodeURIComponent(order.r.json.order.customerId)}`,
  );

  const problems = [];
  for (const locale of LOCALES) {
    const p = await newPage(browser, LAPTOP);
    await p.context().addCookies(await page.context().cookies());
    await p.addInitScript((l) => localStorage.setItem('streamcart-console-locale', l), locale);
    for (const path of paths) {
      await p.goto(`${server.url}${path}`);
      await p.getByRole('heading', { level: 1 }).waitFor();
      // The screen's chunk, then its data (no loading note left).
      await p.waitForFunction(() => !document.querySelector('[data-testid="screen-loading"], main p.muted[role="status"]'));
      const name = `${locale}-${path.replace('/checkout/admin/', '').replace(/\/.*/, '-detail') || 'dashboard'}`;
      const seen = await p.evaluate(() => ({
        page: document.scrollingElement.scrollWidth - window.innerWidth,
        tables: [...document.querySelectorAll('.table-wrap')]
          .filter((w) => w.scrollWidth > w.clientWidth + 1)
          .map((w) => `${w.querySelector('caption')?.textContent ?? 'table'} by ${w.scrollWidth - w.clientWidth} px`),
      }));
      if (seen.page > 0) problems.push(`${name}: the page scrolls ${seen.page} px sideways`);
      for (const t of seen.tables) problems.push(`${name}: ${t}`);
      await shot(p, `1280-${name}`);
    }
    assert.deepEqual(p.problems, [], `console errors or CSP violations in ${locale}`);
    await p.context().close();
  }
  assert.deepEqual(problems, []);
});

test('a date is typed in the language’s order: dd.mm.yyyy in German, yyyy-mm-dd in US English', async () => {
  for (const [locale, label, order, shown] of [
    ['de-de', 'Erstellt ab', ['day', 'month', 'year'], '24.12.2026'],
    ['en-us', 'Created from', ['year', 'month', 'day'], '2026-12-24'],
  ]) {
    const p = await newPage(browser, LAPTOP);
    await p.context().addCookies(await page.context().cookies());
    await p.addInitScript((l) => localStorage.setItem('streamcart-console-locale', l), locale);
    await p.goto(`${server.url}/checkout/admin/orders`);
    const field = p.getByRole('group', { name: label });
    await field.waitFor();
    const segments = field.getByRole('spinbutton');
    assert.deepEqual(await segments.evaluateAll((s) => s.map((e) => e.dataset.type)), order);
    await segments.first().click();
    await p.keyboard.type(order.map((k) => ({ day: '24', month: '12', year: '2026' })[k]).join(''));
    assert.equal((await field.innerText()).replace(/[\u2066-\u2069\s]/g, ''), shown);
    await p.getByRole('button', { name: locale === 'de-de' ? 'Filter anwenden' : 'Apply filters' }).click();
    await p.waitForURL((u) => u.searchParams.get('from') === '2026-12-24');
    assert.deepEqual(p.problems, []);
    await p.context().close();
  }
});
