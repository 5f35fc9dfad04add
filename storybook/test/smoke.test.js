// Smoke test of the built Storybook (storybook-static/, from `npm run build`): every story of
// index.json is opened in the system Chromium and must render the widget without a page error, a
// console error (the API mock logs one for any answer or request that breaks the contract) or
// Storybook's error display, and must finish its play function. Key stories must show the exact
// texts of the spec and of the contract's error messages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const STATIC = fileURLToPath(new URL('../storybook-static/', import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const STORY_TIMEOUT_MS = 20_000;
const PARALLEL = Number(process.env.SMOKE_PARALLEL ?? 3);

/** Texts a story must show (inside the widget's shadow root), by story id. */
const EXPECT = {
  'checkout-plans--default': ['Choose your plan', 'Standard', 'Premium', 'Free Trial', 'Pay €12.99', 'Card (sandbox)'],
  'checkout-plans--empty-catalog': ['No plans are available right now. Please check back soon.'],
  'checkout-plans--free-trial': ['Start free trial', 'No credit card required'],
  'checkout-plans--extras-selected': ['2 extra connections', 'Proxy protection', 'Pay €23.99'],
  'checkout-plans--promo-applied': ['Code WELCOME10 applied: 10% off.', 'Discount (WELCOME10)', 'Pay €11.69'],
  // Spec §5, exact.
  'checkout-plans--promo-not-applicable': ['This Coupon is not available for this product.'],
  // Spec §5: otherwise the server's message.
  'checkout-plans--promo-unknown': ['This promo code does not exist or has expired.'],
  'checkout-plans--other-currency': ['Pay $14.03', '≈ €12.99 · 1 EUR = 1.08 USD'],
  'checkout-plans--price-loading': ['Updating price…', 'Pay …'],
  'checkout-plans--currencies-unavailable': ['Pay $14.03'],
  'checkout-payment--automatic-order': ['Taking you to the secure payment page…'],
  'checkout-payment--gateway-stripe': ['Card (Stripe)'],
  'checkout-payment--gateway-stripe-renew-with-card': [
    'Renew automatically with this card',
    'We will charge this card each month on the due date until you cancel auto-renew in "My services".',
  ],
  // Renewals (issue 13).
  'account-renewals--renewal-banner': ['Your renewal invoice is ready.', '€12.99 due on February 1, 2030.', 'Pay now'],
  'account-renewals--card-declined': [
    'Overdue',
    'Your bank declined the charge to your saved card for this renewal. Pay it with “Pay now” to keep your service running.',
    'Pay now',
  ],
  'account-renewals--suspended-service': ['Suspended', 'Overdue', 'This service is suspended until its renewal is paid.'],
  'account-renewals--auto-renew-cancelled': ['Auto-renew is off: this service ends on February 1, 2030.', 'Resume auto-renew'],
  'account-renewals--renew-refused': ['This action is not available for this service right now.'],
  'account-renewals--renew-page-unpaid': [
    'Renew your subscription',
    'Standard',
    'sc91692420',
    'February 1, 2030 to March 1, 2030',
    'Pay €12.99',
  ],
  'account-renewals--renew-page-paid': ['Your renewal is paid', 'Thank you! Your subscription now runs until March 1, 2030.'],
  'account-renewals--renew-page-invalid-link': ['This payment link is no longer valid'],
  'checkout-payment--gateway-coinbase': ['Crypto (Coinbase Commerce)'],
  'checkout-payment--gateway-cryptomus': ['Crypto (Cryptomus)'],
  'checkout-payment--creating-order': ['Creating your order…'],
  'checkout-payment--redirecting-to-payment': ['Taking you to the secure payment page…', 'Complete your payment'],
  'checkout-payment--price-changed': ['The price has changed to €14.99. Please confirm the new price to continue.', 'Confirm new price'],
  'checkout-payment--order-failed-unavailable': ['The service is busy right now. Please try again in a moment.'],
  'checkout-payment--order-failed-gateway': ['This option is not available. Please change your selection.'],
  'checkout-payment--order-failed-not-found': ['We could not find what you were looking for.'],
  'checkout-payment--order-failed-idempotency': ['This order was already submitted with different details. Please try again.'],
  'checkout-payment--order-failed-network': ['We could not reach the server. Please check your connection.'],
  'checkout-payment--order-held-for-review': ['We could not complete your order', 'Order ord_storybook01'],
  'checkout-errors--network-error-catalog': ['We could not load this part of the checkout. Please try again.', 'Try again'],
  'checkout-errors--network-error-price': ['We could not reach the server. Please check your connection.'],
  'checkout-errors--unknown-currency': ['We could not load this part of the checkout. Please try again.'],
  'checkout-errors--unknown-currency-price': ['This option is not available. Please change your selection.'],
  // Spec §5, exact.
  'checkout-errors--invalid-email': ['Please enter a Valid Email.'],
  'checkout-errors--invalid-email-typed': ['Please enter a Valid Email.'],
  'checkout-errors--email-required': ['Please enter your email address.'],
  'checkout-errors--email-rejected-by-server': ['Please enter a Valid Email.'],
  'checkout-errors--malformed-answer': ['Something went wrong', 'We received an unexpected answer from the server.'],
  // Spec §2 and §8, exact.
  'checkout-errors--not-found': ['This page could not be found', 'Back to the home page', '404'],
  'checkout-after-payment--waiting-for-payment': ['Waiting for your payment to be confirmed…', 'Complete your payment', 'Cancel order'],
  'checkout-after-payment--waiting-paid': ['Payment received. Setting up your subscription…'],
  'checkout-after-payment--waiting-provisioning': ['Setting up your subscription…'],
  'checkout-after-payment--order-cancelled': ['This order was cancelled.', 'Back to plans'],
  'checkout-after-payment--payment-failed': ['The payment did not go through.'],
  'checkout-after-payment--cancel-question': ['Cancel this order? Nothing has been charged for it.'],
  'checkout-after-payment--fraud': ['We could not complete your order', 'held for a manual review', 'Contact support'],
  'checkout-after-payment--order-not-found': ['We could not find what you were looking for.'],
  // An order link opened where there is no session offers to sign in (issue 25), never "expired".
  'checkout-after-payment--signed-out': ['Sign in to see this order', 'Sign in'],
  'checkout-after-payment--polling-network-error': ['We could not reach the server. Please check your connection.'],
  'checkout-after-payment--success': ['Welcome aboard!', 'sc91692420', '865762160918', 'Download M3U playlist', 'TiviMate', 'Speed test'],
  'checkout-after-payment--success-trial': ['Welcome aboard!', 'Free Trial', 'sc55012384'],
  'checkout-after-payment--success-credentials-pending': ['Your login details are being prepared. Please refresh in a moment.'],
  'account-services--sign-in': ['Sign in to manage your services', 'Send sign-in link'],
  'account-services--sign-in-link-sent': ['If this email belongs to an account, a sign-in link is on its way.'],
  'account-services--sign-in-wrong-password': ['Wrong email or password.'],
  'account-services--sign-in-throttled': ['Too many failed sign-in attempts. Please wait 15 minutes and try again.'],
  'account-services--sign-in-link-invalid': ['This sign-in link is invalid, expired or already used. Please ask for a new one.'],
  'account-services--services': ['My services', 'Standard', 'Premium', 'Free Trial', '00:1A:79:12:34:56', 'Add connections'],
  'account-services--services-empty': ['There are no services on this account yet.'],
  'account-services--services-failed': ['Something went wrong on our side. Please try again.'],
  'account-services--session-expired': ['Please sign in again to continue.'],
  'account-services--service-restarted': ['The service was restarted.'],
  'account-services--terminate-question': ['Terminate Standard for good? It stops working at once and cannot be restored.'],
  'account-services--mac-invalid': ['Please enter a valid MAC address'],
  'account-services--mac-saved': ['The MAC address is now 00:1A:79:AB:CD:EF.'],
  'account-upsell--offer': ['Add connections', '2 connections after payment', 'Pay €3.00'],
  'account-upsell--three-connections': ['4 connections after payment', 'Pay €9.00'],
  'account-upsell--sign-in-first': ['Sign in to add connections to your subscription.'],
  'account-upsell--no-offers': ['None of your active services can take more connections right now.'],
  'account-upsell--payment-failed': ['The service is busy right now. Please try again in a moment.'],
  'account-upsell--success': ['Connections added', 'Your subscription now allows 3 connections at the same time.'],
  'resellers--plans': ['Reseller plans', 'Reseller Pro', 'Are you already one of our resellers?', '€599.00'],
  'resellers--existing-reseller': ['You are a reseller. Your balance: 240 credits.'],
  // Spec §5 default message, exact.
  'resellers--password-mismatch': ['Not the same password'],
  'resellers--weak-password': ['Please choose a password of at least 8 characters.'],
  'resellers--price-changed': ['The price has changed to €649.00. Please confirm the new price to continue.', 'Confirm new price'],
  'resellers--waiting': ['Payment received. Setting up your subscription…'],
  'resellers--success': ['Your reseller plan is active', '500 credits have been added to your reseller account.', 'res_buyer'],
  // The shared components on their own (widget/src/ui/*.stories.tsx).
  'ui-copybutton--default': ['Copy'],
  'ui-credential--username': ['Username', 'sc91692420', 'Copy'],
  'ui-emailfield--invalid': ['Please enter a Valid Email.'],
  'ui-emailfield--required': ['Please enter your email address.'],
  'ui-plangrid--default': ['Free Trial', 'Standard', 'Premium', '€12.99', 'Selected'],
  'ui-plangrid--annually': ['€99.99', '€119.99'],
  'ui-summary--default': ['Order summary', 'Standard · Monthly', 'Pay €12.99'],
  'ui-summary--with-extras': ['2 extra connections', 'Proxy protection', 'Pay €20.99'],
  'ui-summary--discount': ['Discount (WELCOME10)', 'Pay €11.69'],
  'ui-summary--other-currency': ['Pay $14.03', '≈ €12.99 · 1 EUR = 1.08 USD'],
  'ui-summary--free-trial': ['Start free trial'],
  'ui-summary--price-changed': ['The price has changed to €15.99. Please confirm the new price to continue.', 'Confirm new price'],
  'ui-summary--order-failed': ['The service is busy right now. Please try again in a moment.'],
  'ui-views--not-found-view': ['This page could not be found', 'Back to the home page', '404'],
  'ui-views--error-network': ['Something went wrong', 'We could not reach the server. Please check your connection.', 'Try again'],
  'ui-views--manage-services': ['Already a customer?', 'Manage my services'],
  'ui-icons--all': ['check', 'sparkle'],
  // The seller's console, one story per screen state (widget/console/src/screens/*.stories.tsx).
  'console-dashboard--default': [
    'Dashboard',
    'Needs a look',
    '2 orders are held by the fraud check',
    'Monthly recurring revenue',
    'Revenue per day',
  ],
  'console-dashboard--quiet': ['Nothing needs a look right now.'],
  'console-orders--default': ['Orders', 'ord_1', 'second@example.com', '€12.99', 'Next page'],
  'console-orders--empty': ['Nothing to show.'],
  'console-order-detail--paid': ['Order ord_1', 'buyer@example.com', 'Basic — Monthly', 'Refund…'],
  'console-order-detail--itemised': [
    'Free Trial — Quarterly',
    '2 extra connections',
    'Proxy protection',
    'Promotion WELCOME',
    'VAT 19% (DE)',
  ],
  'console-order-detail--refunded': ['Order ord_1', 'asked by phone'],
  'console-subscriptions--default': ['Subscriptions', 'svc_1', 'svc_2', '00:1A:79:AA:BB:CC', 'Cancel auto-renew', 'Change…'],
  'console-subscriptions--viewer': ['Your role may look here but not change anything.'],
  'console-subscriptions--whmcs-due-dates-unavailable': ['WHMCS could not be read just now'],
  'console-settings--default': ['Settings', 'STREAMCART_ADDR', 'STREAMCART_SECRET_KEY', '••••'],
  'console-settings--loading': ['Loading…'],
  'console-settings--forbidden': ['Your role does not allow this (403 forbidden).'],
  'console-dashboard--loading': ['Loading…'],
  'console-dashboard--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-orders--loading': ['Loading…'],
  'console-orders--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-order-detail--loading': ['Loading…'],
  'console-order-detail--not-found': ['Order ord_404', 'Not found.'],
  'console-subscriptions--empty': ['Nothing to show.'],
  'console-subscriptions--loading': ['Loading…'],
  'console-subscriptions--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-customers--default': ['Customers', 'buyer.two@example.com', 'usr_3'],
  'console-customers--empty': ['Nothing to show.'],
  'console-customers--loading': ['Loading…'],
  'console-customers--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-customer--default': ['Customer', 'buyer@example.com', 'ord_2', 'svc_2', 'Sign out everywhere'],
  'console-customer--empty': ['new@example.com', 'Nothing to show.'],
  'console-customer--loading': ['Loading…'],
  'console-customer--not-found': ['Not found.'],
  'console-held-orders--default': ['Held orders', 'ord_7', 'many@mailinator.com', 'Approve', 'Reject'],
  'console-held-orders--viewer': ['Your role may look here but not change anything.'],
  'console-held-orders--empty': ['Nothing to show.'],
  'console-held-orders--loading': ['Loading…'],
  'console-held-orders--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-payments-to-review--default': ['Money to review', 'ord_2', 'Accept'],
  'console-payments-to-review--viewer': ['Money to review', 'ord_1'],
  'console-payments-to-review--empty': ['Nothing to show.'],
  'console-payments-to-review--loading': ['Loading…'],
  'console-payments-to-review--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-jobs--default': ['Jobs', 'panel: connection refused', 'Retry'],
  'console-jobs--empty': ['Nothing to show.'],
  'console-jobs--loading': ['Loading…'],
  'console-jobs--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-line-drift--default': ['Line drift', 'Line missing on the panel', 'Panel line without an order', 'panel unavailable'],
  'console-line-drift--empty': ['No line drift recorded'],
  'console-line-drift--loading': ['Loading…'],
  'console-line-drift--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-webhooks--default': ['Webhooks', 'evt_1', 'signature mismatch'],
  'console-webhooks--empty': ['Nothing to show.'],
  'console-webhooks--loading': ['Loading…'],
  'console-webhooks--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-mail--default': ['Mail', 'Your renewal invoice', '550 mailbox unavailable', 'Send again'],
  'console-mail--empty': ['Nothing to show.'],
  'console-mail--loading': ['Loading…'],
  'console-mail--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-promotions--default': ['Promotions', 'WELCOME10', 'SUMMER2020', 'New promotion', '€2.00'],
  'console-promotions--empty': ['Nothing to show.'],
  'console-promotions--loading': ['Loading…'],
  'console-promotions--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-audit--default': [
    'Audit log',
    'order:ord_1',
    '203.0.113.7',
    'Failed sign-ins',
    '€12.99 by sandbox: asked by phone',
    'wrong password',
    'Order refunded',
    'Payment accepted',
    'order ord_6: +1 connections, 3 in all',
  ],
  'console-audit--empty': ['Nothing to show.'],
  'console-audit--loading': ['Loading…'],
  'console-audit--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-operators--default': ['Operators', 'help@example.com', 'Invite an operator'],
  'console-operators--owner-alone': ['me@example.com', 'Invite an operator'],
  'console-operators--loading': ['Loading…'],
  'console-operators--forbidden': ['Your role does not allow this (403 forbidden).'],
  'console-catalog--default': ['Catalog', 'Version 2 in force since', 'Standard', 'Premium', 'Review changes'],
  'console-catalog--not-published': ['In force: the catalog file the shop was started with'],
  'console-catalog--viewer': ['Your role may look here but not change anything.'],
  'console-catalog--loading': ['Loading…'],
  'console-catalog--failed': ['The shop failed inside while answering; its log has the details.'],
  'console-sign-in--default': ['Sign in', 'Authenticator code'],
  'console-sign-in--setup': ['Set up your console account', 'New password'],
  'console-sign-in--setup-without-token': ['This setup link has no token.'],
  'ui-app-icons--all': ['Android TV', 'Speed test'],
};

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

let server;
let base;
let browser;
let index;

before(async () => {
  await stat(join(STATIC, 'index.json')).catch(() => {
    throw new Error('storybook-static/ is missing: run `npm run build -w storybook` first');
  });
  server = createServer(async (req, res) => {
    // Chromium asks for /favicon.ico on its own; Storybook ships favicon.svg.
    if (req.url === '/favicon.ico') return res.writeHead(204).end();
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(STATIC, path.endsWith('/') ? `${path}index.html` : path);
    try {
      const data = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(data);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
  index = JSON.parse(await readFile(join(STATIC, 'index.json'), 'utf8'));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

/** SMOKE_STORIES=<id prefix> checks only those stories (console- for the console's). */
function stories() {
  const only = process.env.SMOKE_STORIES ?? '';
  return Object.values(index.entries).filter((e) => e.type === 'story' && e.id.startsWith(only));
}

async function newPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.problems.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => page.problems.push(`page error: ${err.message}`));
  page.on('response', (res) => {
    if (res.status() >= 400) page.problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  return page;
}

/**
 * Opens one story and returns what is wrong with it (empty when nothing is). The story is done
 * when Storybook's render reaches "finished" (after the play function).
 */
async function check(page, id, { globals = '', expect = EXPECT[id] ?? [] } = {}) {
  page.problems = [];
  const problems = page.problems;
  const preview = await page.evaluate(() => !!window.__STORYBOOK_PREVIEW__?.currentRender).catch(() => false);
  if (preview && !globals) {
    // Another story in the same preview, as the Storybook UI switches stories: no reload.
    await page.evaluate((storyId) => window.__STORYBOOK_PREVIEW__.channel.emit('setCurrentStory', { storyId, viewMode: 'story' }), id);
  } else {
    await page.goto(`${base}/iframe.html?id=${encodeURIComponent(id)}&viewMode=story${globals ? `&globals=${globals}` : ''}`);
  }
  const phase = await page
    .waitForFunction(
      (storyId) => {
        const r = window.__STORYBOOK_PREVIEW__?.currentRender;
        const p = r?.id === storyId ? r.phase : undefined;
        return p === 'finished' || p === 'errored' || p === 'aborted' ? p : false;
      },
      id,
      { timeout: STORY_TIMEOUT_MS, polling: 50 },
    )
    .then((h) => h.jsonValue())
    .catch(() => 'timed out');
  if (phase !== 'finished') problems.push(`render ${phase}`);
  // A UI/ story shows one shared component in the widget's shadow root and CSS (the Frame of
  // widget/src/test/story/Frame.tsx), not the whole element; a Console/ story the seller's console
  // (widget/console/src/test/story.tsx) in the page itself, no shadow root.
  const host = id.startsWith('console-') ? '[data-console-story]' : id.startsWith('ui-') ? '[data-component-frame]' : 'streamcart-checkout';
  // The console asks for its session (and, in another language, loads that language's table)
  // before its first screen: give the page a moment to appear, then judge it.
  await page
    .waitForFunction(
      (host) => {
        const el = document.querySelector(`#storybook-root ${host}`);
        return !!(el?.shadowRoot ? el.shadowRoot.querySelector('.sc-root') : el?.querySelector('main'));
      },
      host,
      { timeout: 5000, polling: 50 },
    )
    .catch(() => undefined);
  const shown = await page.evaluate((host) => {
    const error = document.body.classList.contains('sb-show-errordisplay')
      ? (document.querySelector('#error-message')?.textContent ?? 'error display')
      : null;
    const el = document.querySelector(`#storybook-root ${host}`);
    const root = el?.shadowRoot ? el.shadowRoot.querySelector('.sc-root') : el?.querySelector('main');
    const box = root?.getBoundingClientRect();
    return { error, rendered: !!root && !!box && box.height > 0 && (root.textContent ?? '').trim().length > 0 };
  }, host);
  if (shown.error) problems.push(`Storybook error display: ${shown.error.trim().slice(0, 300)}`);
  if (!shown.rendered) problems.push('the widget rendered nothing');
  for (const text of expect) {
    // Text locators pierce the widget's open shadow root.
    const visible = await page
      .getByText(text, { exact: false })
      .filter({ visible: true })
      .first()
      .waitFor({ state: 'visible', timeout: 5000 })
      .then(
        () => true,
        () => false,
      );
    if (!visible) {
      const shownText = await page.evaluate((host) => {
        const el = document.querySelector(host);
        return (el?.shadowRoot ?? el)?.textContent ?? '';
      }, host);
      problems.push(`does not show ${JSON.stringify(String(text))}; it shows: ${shownText.replace(/\s+/g, ' ').slice(0, 400)}`);
    }
  }
  return problems.map((p) => `${id}: ${p}`);
}

test('index.json lists every story the checks expect', () => {
  const ids = new Set(stories().map((s) => s.id));
  assert.ok(ids.size >= 60, `only ${ids.size} stories`);
  assert.deepEqual(
    Object.keys(EXPECT).filter((id) => !ids.has(id)),
    [],
  );
});

test('every story renders the widget without errors and shows its key texts', async () => {
  const queue = stories().map((s) => s.id);
  const failures = [];
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      const page = await newPage();
      for (let id = queue.shift(); id; id = queue.shift()) failures.push(...(await check(page, id)));
      await page.context().close();
    }),
  );
  assert.deepEqual(failures, []);
});

test('the toolbar globals switch locale and currency for a story', async () => {
  const page = await newPage();
  try {
    assert.deepEqual(
      await check(page, 'checkout-plans--default', {
        globals: 'locale:de-de;currency:USD',
        expect: ['Wählen Sie Ihr Paket', 'Standard', '$'],
      }),
      [],
    );
    const lang = await page.evaluate(() => document.querySelector('streamcart-checkout').shadowRoot.querySelector('.sc-root').lang);
    assert.equal(lang, 'de-DE');
    // Every locale of the toolbar renders the plans in that language, priced in pounds (the
    // fixture's rate 0.86: €12.99 → £11.17; the symbol or the code depends on the locale).
    for (const [code, tag] of [
      ['en', 'en'],
      ['en-us', 'en-US'],
      ['en-gb', 'en-GB'],
      ['es-es', 'es-ES'],
      ['nl-nl', 'nl-NL'],
      ['pt-pt', 'pt-PT'],
    ]) {
      assert.deepEqual(await check(page, 'checkout-plans--default', { globals: `locale:${code};currency:GBP`, expect: [/11[.,]17/] }), []);
      assert.equal(await page.evaluate(() => document.querySelector('streamcart-checkout').shadowRoot.querySelector('.sc-root').lang), tag);
    }
  } finally {
    await page.context().close();
  }
});

test('the toolbar locale shows the console in that language, English left nowhere', async () => {
  const page = await newPage();
  try {
    for (const [id, expect] of [
      ['console-dashboard--default', ['Übersicht', 'Monatlich wiederkehrender Umsatz', 'Umsatz pro Tag', 'Bitte ansehen']],
      ['console-customers--default', ['Kunden', 'Aktive Leitungen', 'E-Mail oder Kunden-ID']],
      ['console-subscriptions--default', ['Abonnements', 'Verlängerung beenden', 'Monatlich']],
      ['console-sign-in--default', ['Anmelden', 'Authenticator-Code']],
    ]) {
      assert.deepEqual(await check(page, id, { globals: 'locale:de-de', expect }), []);
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'de-DE');
      assert.equal(await page.getByRole('button', { name: 'Menu', exact: true }).count(), 0, `${id}: the English menu button is left`);
    }
  } finally {
    await page.context().close();
  }
});

test('a toolbar change switches the running widget without restarting it', async () => {
  const page = await newPage();
  try {
    assert.deepEqual(await check(page, 'checkout-errors--invalid-email'), []);
    // What the toolbar does: new globals for the story on screen.
    await page.evaluate(() =>
      window.__STORYBOOK_PREVIEW__.channel.emit('updateGlobals', { globals: { locale: 'de-de', currency: 'GBP' } }),
    );
    const german = page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.').filter({ visible: true }).first();
    await german.waitFor({ state: 'visible', timeout: 10_000 });
    await page.getByText('£').filter({ visible: true }).first().waitFor({ state: 'visible', timeout: 10_000 });
    // Same widget: the email typed on landing is still there, the API was not reset.
    const email = await page.evaluate(
      () => document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="email-input"]').value,
    );
    assert.equal(email, 'buyer@example');
    assert.deepEqual(page.problems, []);
  } finally {
    await page.context().close();
  }
});
