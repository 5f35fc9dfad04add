// Keyboard only: a paid purchase from the plans through the sandbox payment page to the success
// view with Tab, Shift+Tab, arrows, Enter, Space and typing (no clicks). Every stop has a visible
// focus indicator, and each new step takes the focus (its heading or the control that needs
// attention) instead of dropping it on the host page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPage, gotoReady, persisted, uniqueEmail } from './helpers.js';

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

/**
 * Records every element that takes focus, across page loads (the flow leaves for the payment page
 * and comes back), with the deepest target inside the widget's shadow root.
 */
async function recordFocus(page) {
  await page.addInitScript(() => {
    document.addEventListener(
      'focusin',
      (e) => {
        const t = e.composedPath()[0];
        if (!(t instanceof Element)) return;
        const list = JSON.parse(sessionStorage.getItem('e2e:focus') ?? '[]');
        list.push({
          path: location.pathname,
          tag: t.tagName.toLowerCase(),
          testid: t.getAttribute('data-testid'),
          text: (t.textContent ?? '').trim().slice(0, 60),
        });
        sessionStorage.setItem('e2e:focus', JSON.stringify(list));
      },
      true,
    );
  });
}

/**
 * focused describes the element that has the keyboard focus, looking through open shadow roots,
 * and whether it shows a focus indicator: an outline or box shadow of its own, or (radios) on
 * the option around it.
 */
function focused(page) {
  return page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body || el === document.documentElement) return { lost: true };
    // An outline of 2 px or more; text fields may show a focus ring as a box shadow instead (a
    // shadow elsewhere, like the pay button's, is there without focus too and does not count).
    const ring = (node) => {
      const cs = getComputedStyle(node);
      const outline = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2 && cs.outlineColor !== 'rgba(0, 0, 0, 0)';
      const field = /^(input|select|textarea)$/i.test(node.tagName) && !['checkbox', 'radio', 'range'].includes(node.type);
      return outline || (field && cs.boxShadow !== 'none' && cs.boxShadow !== '');
    };
    const option = el.closest('.sc-gateway');
    const inWidget = el.getRootNode() instanceof ShadowRoot;
    return {
      lost: false,
      inWidget,
      tag: el.tagName.toLowerCase(),
      id: el.id,
      testid: el.getAttribute('data-testid'),
      pid: el.getAttribute('data-pid'),
      checked: el.getAttribute('aria-checked') ?? (el.type === 'checkbox' || el.type === 'radio' ? String(el.checked) : null),
      value: 'value' in el ? el.value : null,
      text: (el.textContent ?? '').trim().slice(0, 80),
      focusVisible: el.matches(':focus-visible'),
      indicator: ring(el) || (!!option && ring(option)),
      invalid: el.getAttribute('aria-invalid'),
      describedBy: el.getAttribute('aria-describedby'),
    };
  });
}

/** expectFocus waits until the focused element matches `want`, and checks it is visible as such. */
async function expectFocus(page, want, label) {
  let f;
  const deadline = Date.now() + 10_000;
  do {
    f = await focused(page);
    if (!f.lost && Object.entries(want).every(([k, v]) => (v instanceof RegExp ? v.test(f[k] ?? '') : f[k] === v))) break;
    await page.waitForTimeout(50);
  } while (Date.now() < deadline);
  for (const [k, v] of Object.entries(want)) {
    if (v instanceof RegExp) assert.match(f[k] ?? '', v, `${label}: ${k} of ${JSON.stringify(f)}`);
    else assert.equal(f[k], v, `${label}: ${k} of ${JSON.stringify(f)}`);
  }
  return f;
}

/** press presses a key and checks that focus is still somewhere, with a visible indicator. */
async function press(page, key, label) {
  await page.keyboard.press(key);
  const f = await focused(page);
  assert.equal(f.lost, false, `${label}: focus lost to the page after ${key}`);
  return f;
}

/** tabTo presses Tab (or Shift+Tab) until the focused element has data-testid `testid`. */
async function tabTo(page, testid, { back = false, max = 30 } = {}) {
  for (let i = 0; i < max; i++) {
    const f = await press(page, back ? 'Shift+Tab' : 'Tab', `tab to ${testid}`);
    assert.ok(f.indicator, `no visible focus indicator on ${JSON.stringify(f)}`);
    if (f.testid === testid) return f;
  }
  throw new Error(`${testid} not reached with ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}`);
}

async function selectWithArrows(page, value) {
  for (let i = 0; i < 8; i++) {
    const f = await focused(page);
    if (f.value === value) return;
    await page.keyboard.press(i < 4 ? 'ArrowDown' : 'ArrowUp');
  }
  assert.equal((await focused(page)).value, value);
}

const shadowText = (page, testid) =>
  page.evaluate(
    (id) => document.querySelector('streamcart-checkout').shadowRoot.querySelector(`[data-testid="${id}"]`)?.textContent ?? null,
    testid,
  );

test('a paid plan bought with the keyboard only, through the sandbox to the success view', async () => {
  const page = await newPage(browser);
  await recordFocus(page);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await gotoReady(page, `${server.url}/checkout/`);
  await page.locator('streamcart-checkout [data-testid="pay-button"]').waitFor();
  // A fresh landing page leaves the focus with the page (no jump into the widget).
  assert.equal((await focused(page)).lost, true);

  // Skip link → main content → "Manage my services" → the selected plan card.
  const skip = await press(page, 'Tab', 'skip link');
  assert.equal(skip.tag, 'a');
  assert.match(skip.text, /skip/i);
  assert.ok(skip.indicator, 'skip link shows its focus');
  await press(page, 'Enter', 'skip link');
  await expectFocus(page, { tag: 'main' }, 'skip link target');
  await tabTo(page, 'manage-services');
  const card = await press(page, 'Tab', 'plan grid');
  assert.deepEqual([card.testid, card.pid, card.checked], ['plan-card', '2', 'true']);
  assert.ok(card.indicator && card.focusVisible, 'the plan card shows its focus');

  // Arrows move the choice like radios; Enter chooses and goes on to the checkout form.
  await press(page, 'ArrowRight', 'next plan');
  await expectFocus(page, { testid: 'plan-card', pid: '3', checked: 'true' }, 'ArrowRight');
  await press(page, 'ArrowLeft', 'previous plan');
  await expectFocus(page, { testid: 'plan-card', pid: '2', checked: 'true' }, 'ArrowLeft');
  await press(page, 'Enter', 'continue');
  await expectFocus(page, { testid: 'billing-cycle' }, 'Enter on a plan goes to the checkout form');
  await selectWithArrows(page, 'monthly');

  // Extra connections on, the count down to 1 (its "−" button is disabled there, so focus moves
  // to the count field), back with Shift+Tab and the option off again.
  await tabTo(page, 'extra-connections-toggle');
  await press(page, 'Space', 'extra connections on');
  await expectFocus(page, { testid: 'extra-connections-toggle', checked: 'true' }, 'switch on');
  await page.locator('streamcart-checkout [data-testid="extra-connections-count"]').waitFor();
  const minus = await press(page, 'Tab', 'fewer connections');
  assert.equal(minus.tag, 'button');
  await press(page, 'Space', 'fewer connections');
  await expectFocus(page, { testid: 'extra-connections-count', value: '1' }, 'count at its minimum');
  await tabTo(page, 'extra-connections-toggle', { back: true });
  await press(page, 'Space', 'extra connections off');
  await expectFocus(page, { testid: 'extra-connections-toggle', checked: 'false' }, 'switch off');

  // A wrong email: the field is marked invalid, described by the error, which is announced.
  await tabTo(page, 'email-input');
  await page.keyboard.type('not-an-email');
  await tabTo(page, 'promo-input');
  await page.locator('streamcart-checkout [data-testid="email-error"]').waitFor();
  const error = page.locator('streamcart-checkout [data-testid="email-error"]');
  assert.equal(await error.getAttribute('role'), 'alert');
  assert.equal((await error.innerText()).trim(), 'Please enter a Valid Email.');
  const email = await tabTo(page, 'email-input', { back: true });
  assert.equal(email.invalid, 'true');
  assert.ok(email.describedBy.split(' ').includes(await error.getAttribute('id')), 'error describes the field');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(uniqueEmail('keyboard'));
  await tabTo(page, 'promo-input');
  await page.locator('streamcart-checkout [data-testid="email-error"]').waitFor({ state: 'detached' });

  // Promo: Enter in the field applies; Remove gives the focus back to the field; Apply pressed
  // with Space hands it to Remove, which takes its place.
  await page.keyboard.type('welcome10');
  await press(page, 'Enter', 'apply promo');
  await page.locator('streamcart-checkout [data-testid="promo-message"]', { hasText: 'WELCOME10' }).waitFor();
  assert.equal(await page.locator('streamcart-checkout [data-testid="promo-message"]').getAttribute('role'), 'status');
  await tabTo(page, 'promo-remove');
  await press(page, 'Enter', 'remove promo');
  await expectFocus(page, { testid: 'promo-input', value: '' }, 'after Remove');
  await page.keyboard.type('WELCOME10');
  await tabTo(page, 'promo-apply');
  await press(page, 'Space', 'apply promo');
  await expectFocus(page, { testid: 'promo-remove' }, 'after Apply');
  await page.waitForFunction(() =>
    document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="price-total"]')?.textContent.includes('11.69'),
  );

  // The payment method radio (the whole option shows the focus), then pay.
  const radio = await press(page, 'Tab', 'payment method');
  assert.deepEqual([radio.tag, radio.checked], ['input', 'true']);
  assert.ok(radio.indicator, 'the payment option shows its focus');
  await page.waitForFunction(
    () => !document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]').disabled,
  );
  const pay = await tabTo(page, 'pay-button');
  assert.match(pay.text, /11[.,]69/);
  await page.keyboard.press('Enter');

  // The sandbox payment page: Tab to Pay, Enter.
  await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
  const sandboxPay = await press(page, 'Tab', 'sandbox page');
  assert.equal(sandboxPay.text, 'Pay');
  assert.ok(sandboxPay.indicator && sandboxPay.focusVisible, 'sandbox Pay shows its focus');
  await page.keyboard.press('Enter');

  // Back on the checkout: waiting, then success, each taking the focus on its heading.
  await page.waitForURL((u) => u.pathname.endsWith('/success'), { timeout: 60_000 });
  await page.locator('streamcart-checkout [data-testid="credential-username"]').waitFor({ timeout: 60_000 });
  const success = await expectFocus(page, { tag: 'h2', text: 'Welcome aboard!', inWidget: true }, 'success heading');
  // Focused by the page for screen readers, not by the buyer, and no control: no focus ring.
  assert.equal(success.indicator, false, `no focus ring on the success heading: ${JSON.stringify(success)}`);
  const log = JSON.parse(await page.evaluate(() => sessionStorage.getItem('e2e:focus')));
  const headings = log.filter((f) => f.tag === 'h2').map((f) => `${f.path} ${f.text}`);
  assert.ok(headings.includes('/checkout/creatingOrder Creating your order…'), `creating-order heading focused (${headings})`);
  assert.ok(
    headings.some((h) => h.startsWith('/checkout/waiting ')),
    `waiting step focused (${headings})`,
  );

  // The credentials' copy buttons work from the keyboard and keep the focus.
  const copy = await tabTo(page, 'copy-button');
  await page.keyboard.press('Enter');
  await expectFocus(page, { testid: 'copy-button', text: 'Copied!' }, 'copy');
  assert.equal(copy.inWidget, true);
  await page.context().close();
});

test('pay without an email: focus goes to the field, which says why', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/`);
  await page.locator('streamcart-checkout [data-testid="plan-card"]').first().waitFor();
  await page.waitForFunction(
    () => !document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]')?.disabled,
  );
  // The form settled (gateways listed, total quoted): this test is about paying without an email.
  await page.waitForFunction(() => {
    const root = document.querySelector('streamcart-checkout').shadowRoot;
    return (
      root.querySelector('[data-testid="gateway-option"]') &&
      /\d/.test(root.querySelector('[data-testid="price-total"]')?.textContent ?? '')
    );
  });
  await tabTo(page, 'pay-button', { max: 40 });
  await page.keyboard.press('Enter');
  const f = await expectFocus(page, { testid: 'email-input', invalid: 'true' }, 'email after pay');
  assert.ok(f.describedBy.split(' ').includes('sc-email-error'));
  assert.equal(await shadowText(page, 'email-error'), 'Please enter your email address.');
  await page.context().close();
});

/** A request the test holds back until release() (page.route). */
function held() {
  let release;
  const gate = new Promise((ok) => {
    release = ok;
  });
  return { gate, release: () => release() };
}

/**
 * recordLost notes, in every animation frame, when the keyboard focus has fallen to the page (the
 * body, or the widget's host with nothing focused inside) after something had it.
 */
async function recordLost(page) {
  await page.addInitScript(() => {
    window.__focusLost = [];
    let last = null;
    const check = () => {
      let el = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      const lost =
        !el ||
        el === document.body ||
        el === document.documentElement ||
        (el.shadowRoot && !el.shadowRoot.activeElement && el.tagName === 'STREAMCART-CHECKOUT');
      if (lost && last)
        window.__focusLost.push(
          `${last.tagName.toLowerCase()}[data-testid=${last.getAttribute('data-testid')}] ${(last.textContent ?? '').trim().slice(0, 40)}`,
        );
      last = lost ? null : el;
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
}

test('pay without an email, tabbing at once while the checkout loads slowly: the focus never drops to the page', async () => {
  // No service worker: the host's would answer some requests without page.route seeing them.
  const page = await newPage(browser, { serviceWorkers: 'block' });
  // Held back: the checkout module, the payment methods, the quote and the landing code's check.
  const holds = { '/checkout.js': held(), '/api/gateways': held(), '/api/quote': held(), '/api/promotions/': held() };
  await page.route('**/*', async (route) => {
    const { pathname } = new URL(route.request().url());
    const hold = Object.entries(holds).find(([part]) => pathname.includes(part));
    if (hold) await hold[1].gate;
    await route.continue();
  });
  await recordLost(page);
  await gotoReady(page, `${server.url}/checkout/?promocode=WELCOME10`);
  await page.locator('streamcart-checkout [data-testid="plan-card"]').first().waitFor();

  // On "Manage my services" when the checkout module arrives: the link of the full page takes over.
  await tabTo(page, 'manage-services');
  holds['/checkout.js'].release();
  await page.locator('streamcart-checkout [data-testid="email-input"]').waitFor();
  await expectFocus(page, { testid: 'manage-services', inWidget: true }, 'after the checkout module arrived');

  // Into the form while the code from the URL is being checked: Apply is there, busy.
  await press(page, 'Tab', 'plan card');
  await press(page, 'Enter', 'continue');
  await expectFocus(page, { testid: 'billing-cycle' }, 'Enter on a plan goes to the checkout form');
  await tabTo(page, 'promo-apply');
  holds['/api/promotions/'].release();
  await page.locator('streamcart-checkout [data-testid="promo-message"]', { hasText: 'WELCOME10' }).waitFor();
  await expectFocus(page, { testid: 'promo-remove' }, 'the accepted code swaps Apply for Remove');

  // The payment methods and the total arrive; then on to pay, with no email.
  holds['/api/gateways'].release();
  await page.locator('streamcart-checkout [data-testid="gateway-option"]').first().waitFor();
  holds['/api/quote'].release();
  await page.waitForFunction(
    () => !document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]').disabled,
  );
  await tabTo(page, 'pay-button');
  await page.keyboard.press('Enter');
  await expectFocus(page, { testid: 'email-input', invalid: 'true' }, 'email after pay');
  assert.equal(await shadowText(page, 'email-error'), 'Please enter your email address.');
  assert.deepEqual(await page.evaluate(() => window.__focusLost), [], 'the focus fell to the page');
  await page.context().close();
});

test('Enter on a plan card before the checkout module is there goes on to the form once it arrives', async () => {
  const page = await newPage(browser, { serviceWorkers: 'block' });
  const chunk = held();
  await page.route('**/checkout.js', async (route) => {
    await chunk.gate;
    await route.continue();
  });
  await recordLost(page);
  await gotoReady(page, `${server.url}/checkout/`);
  await page.locator('streamcart-checkout [data-testid="plan-card"]').first().waitFor();
  await tabTo(page, 'plan-card');
  await press(page, 'ArrowRight', 'next plan');
  await expectFocus(page, { testid: 'plan-card', pid: '3', checked: 'true' }, 'ArrowRight');
  await press(page, 'Enter', 'continue');
  // Only the plan cards so far: the choice is made, the card keeps the focus.
  assert.equal(await page.locator('streamcart-checkout [data-testid="billing-cycle"]').count(), 0);
  await expectFocus(page, { testid: 'plan-card', pid: '3', checked: 'true' }, 'Enter before the module');
  chunk.release();
  await expectFocus(page, { testid: 'billing-cycle' }, 'the form once the module is there');
  assert.equal(await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="3"]').getAttribute('aria-checked'), 'true');
  assert.deepEqual(await page.evaluate(() => window.__focusLost), [], 'the focus fell to the page');
  await page.context().close();
});

test('sign-in tabs, the cancel question and the language menu keep the focus', async () => {
  const page = await newPage(browser);
  await gotoReady(page, `${server.url}/checkout/?view=services`);
  await page.locator('streamcart-checkout [data-testid="signin-form"]').waitFor();
  // Tabs: one tab stop, arrows switch between link and password.
  await tabTo(page, 'signin-mode-link');
  await press(page, 'ArrowRight', 'password tab');
  await expectFocus(page, { testid: 'signin-mode-password' }, 'ArrowRight on the tabs');
  await page.locator('streamcart-checkout [data-testid="signin-password"]').waitFor();
  await press(page, 'Tab', 'into the panel');
  await expectFocus(page, { testid: 'email-input' }, 'Tab leaves the tab list');
  await page.keyboard.type(uniqueEmail('signin'));
  await tabTo(page, 'signin-submit');
  await page.keyboard.press('Enter');
  const pw = await expectFocus(page, { testid: 'signin-password', invalid: 'true' }, 'password required');
  assert.equal(pw.describedBy, 'sc-signin-password-error');
  assert.equal(await shadowText(page, 'signin-password-error'), 'Please enter your password.');

  // An unpaid order's waiting page (set up with the mouse): the page opens with its heading
  // focused; the cancel question takes the focus on its safe answer and gives it back.
  await page.goto(`${server.url}/checkout/`);
  await page.locator('streamcart-checkout [data-testid="plan-card"][data-pid="2"]').click();
  await page.locator('streamcart-checkout [data-testid="email-input"]').fill(uniqueEmail('cancel'));
  await page.waitForFunction(
    () => !document.querySelector('streamcart-checkout').shadowRoot.querySelector('[data-testid="pay-button"]').disabled,
  );
  await page.locator('streamcart-checkout [data-testid="pay-button"]').click();
  await page.waitForURL(/\/checkout\/api\/payments\/sandbox\//);
  const { order } = await persisted(page);
  await page.goto(`${server.url}/checkout/waiting?order=${order.orderid}`);
  await page.locator('streamcart-checkout [data-testid="cancel-order"]').waitFor();
  await expectFocus(page, { tag: 'h2', text: 'Almost there', inWidget: true }, 'waiting heading');
  await tabTo(page, 'cancel-order');
  await page.keyboard.press('Enter');
  await expectFocus(page, { tag: 'button', text: 'Keep the order' }, 'the safe answer');
  await page.keyboard.press('Enter');
  await expectFocus(page, { testid: 'cancel-order' }, 'back on Cancel order');
  await page.keyboard.press('Enter');
  await tabTo(page, 'cancel-order-yes', { back: true });
  await page.keyboard.press('Enter');
  await page.locator('streamcart-checkout [data-testid="waiting-status"][data-status="cancelled"]').waitFor();
  await expectFocus(page, { tag: 'h2', inWidget: true }, "the cancelled order's heading");
  await page.context().close();

  // The language menu: opened with Enter, an option chosen with Enter, focus back on its button.
  const home = await newPage(browser);
  await gotoReady(home, `${server.url}/checkout/`);
  await press(home, 'Tab', 'skip link');
  await press(home, 'Tab', 'logo');
  const summary = await press(home, 'Tab', 'language button');
  assert.equal(summary.tag, 'summary');
  await press(home, 'Enter', 'open the language menu');
  // The browser asks for en-US, which the menu does not list: it opens on its first entry.
  await expectFocus(home, { testid: 'language-option', text: 'English' }, 'menu opens on its first language');
  await press(home, 'ArrowDown', 'next language');
  await press(home, 'Enter', 'choose it');
  await expectFocus(home, { tag: 'summary' }, 'focus back on the menu button');
  await home.locator('html[lang="es-ES"]').waitFor();
  await home.context().close();
});
