// The seller's console when something went wrong, end to end in Chromium (docs/console.md):
// - a Stripe order (the shop talks to stripe-mock, Stripe's own API double; the payment arrives
//   as a signed checkout.session.completed webhook) refunded in full from the order page: the
//   refund goes through Stripe's refund API and the line is disabled;
// - a panel that fails: its provisioning job retries, goes dead (STREAMCART_JOB_ATTEMPTS=3), shows
//   on the dashboard and in Jobs with the panel's error; once the panel is back, Retry provisions.
// The shop runs against a stand-in Xtream UI panel (fake-panel.js) that can be switched off.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { freePort, launchBrowser, repoRoot, startServer, uniqueEmail } from './helpers.js';
import { adminGet, eventually, orderUntil, payOnSandbox, placeOrder, signedInOperator, visit } from './console-helpers.js';
import { startFakePanel } from './fake-panel.js';

const STRIPE_MOCK = process.env.STREAMCART_STRIPE_MOCK ?? join(repoRoot, 'bin/stripe-mock');
const WEBHOOK_SECRET = 'whsec_e2e_console';

let stripe;
let panel;
let server;
let browser;
let page;

/**
 * startStripeMock runs stripe-mock on a free port (both its listeners on 127.0.0.1) behind a
 * recording proxy: stripe-mock makes up a new id for every object, and the test needs the
 * Checkout Session the shop opened, as Stripe's webhook would name it.
 */
async function startStripeMock() {
  const port = await freePort();
  const child = spawn(STRIPE_MOCK, ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise((ok, fail) => {
    const seen = (b) => {
      output += b;
      if (output.includes('Listening for HTTP at')) ok();
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('error', (e) => fail(new Error(`${STRIPE_MOCK}: ${e.message} (make bin/stripe-mock)`)));
    child.once('exit', (code) => fail(new Error(`stripe-mock exited ${code}:\n${output}`)));
  });
  const sessions = new Map(); // client_reference_id (our invoice) → the Checkout Session answered
  const refunds = [];
  const proxy = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const headers = Object.fromEntries(
      ['authorization', 'content-type', 'idempotency-key', 'stripe-version'].filter((h) => req.headers[h]).map((h) => [h, req.headers[h]]),
    );
    const answer = await fetch(`http://127.0.0.1:${port}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' ? undefined : body,
    });
    const text = await answer.text();
    if (answer.ok && req.method === 'POST' && req.url === '/v1/checkout/sessions') {
      const s = JSON.parse(text);
      sessions.set(s.client_reference_id, s);
    }
    if (answer.ok && req.method === 'POST' && req.url === '/v1/refunds')
      refunds.push({ request: new URLSearchParams(body), refund: JSON.parse(text) });
    res.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  await new Promise((ok) => proxy.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${proxy.address().port}`,
    sessions,
    refunds,
    stop: () => {
      proxy.close();
      child.kill();
    },
  };
}

before(async () => {
  stripe = await startStripeMock();
  panel = await startFakePanel();
  server = await startServer({
    env: (url) => ({
      STREAMCART_PUBLIC_URL: url,
      STREAMCART_GATEWAYS: 'stripe-sandbox',
      STREAMCART_STRIPE_API_URL: stripe.url,
      STREAMCART_STRIPE_SECRET_KEY: 'sk_test_e2econsole',
      STREAMCART_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STREAMCART_PANEL: 'xtream',
      STREAMCART_PANEL_URL: panel.url,
      STREAMCART_JOB_ATTEMPTS: '3',
    }),
  });
  browser = await launchBrowser();
  page = await signedInOperator(browser, server, 'owner@example.com');
});
after(async () => {
  await page?.context().close();
  await browser?.close();
  await server?.stop();
  await panel?.stop();
  stripe?.stop();
});

/** stripeWebhook posts a Stripe event signed as Stripe signs it (t=…,v1=HMAC-SHA256). */
async function stripeWebhook(event) {
  const body = JSON.stringify(event);
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex');
  const res = await fetch(`${server.url}/checkout/api/payments/stripe/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': `t=${t},v1=${v1}` },
    body,
  });
  assert.ok(res.ok, `webhook answered ${res.status}: ${await res.text()}`);
}

test('a Stripe order refunded in full from the order page: Stripe refunds, the line is disabled', async () => {
  const placed = await placeOrder(server, uniqueEmail('stripe-refund'), { gateway: 'stripe' });
  assert.match(placed.paymentUrl, /^https:\/\/checkout\.stripe\.com\//, 'the buyer is sent to Stripe Checkout');
  const id = placed.orderId;
  const open = await orderUntil(page, id, 'order awaiting payment', (o) => o.order.status === 'pending');
  const session = stripe.sessions.get(placed.invoiceId);
  assert.ok(session, 'the shop opened a Checkout Session for the invoice');
  const total = open.order.total;
  await stripeWebhook({
    id: `evt_e2e_${id}`,
    object: 'event',
    type: 'checkout.session.completed',
    api_version: '2025-01-27.acacia',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        client_reference_id: placed.invoiceId,
        payment_status: 'paid',
        status: 'complete',
        amount_total: total.amount,
        currency: total.currency.toLowerCase(),
        payment_intent: session.payment_intent,
        metadata: { invoice_id: placed.invoiceId, order_id: id },
      },
    },
  });
  const paid = await orderUntil(
    page,
    id,
    'Stripe order active with a line',
    (o) => o.order.status === 'active' && o.lines.length === 1 && o.lines[0].status.toLowerCase() === 'active',
  );
  const username = paid.lines[0].username;
  assert.equal([...panel.lines.values()].find((l) => l.username === username)?.enabled, 1, 'the line is on the panel, enabled');

  await page.goto(`${server.url}/checkout/admin/orders/${encodeURIComponent(id)}`);
  await page.getByRole('heading', { level: 1, name: `Order ${id}` }).waitFor();
  const form = page.getByTestId('refund-form');
  await form.getByLabel('Reason').fill('duplicate purchase, e2e');
  await form.getByRole('button', { name: 'Refund…' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByText('through stripe', { exact: false }).waitFor();
  await dialog.getByRole('button', { name: /^Refund / }).click();
  await page.getByTestId('refund-form').waitFor({ state: 'detached' });
  const refunds = page.locator('section[aria-labelledby="refunds-h"]');
  const refundRow = refunds.getByRole('row').filter({ hasText: 'duplicate purchase, e2e' });
  await refundRow.waitFor();
  // The reference is Stripe's refund id: the money went back through Stripe's API.
  await refundRow.getByText(/^re_/).waitFor();
  const lineRow = page.locator('section[aria-labelledby="lines-h"]').getByRole('row').filter({ hasText: username });
  await lineRow.getByText(/^cancelled$/i).waitFor();
  await visit(page, 'order-stripe-refunded');

  const after = await orderUntil(page, id, 'order refunded', (o) => o.order.status === 'refunded');
  assert.equal(after.lines[0].status.toLowerCase(), 'cancelled');
  const listed = await adminGet(page, `/orders/${encodeURIComponent(id)}/refunds`);
  assert.equal(listed.json.refunds.length, 1);
  assert.equal(listed.json.refunds[0].amount.amount, total.amount, 'refunded in full');
  assert.match(listed.json.refunds[0].reference, /^re_/);
  assert.equal(stripe.refunds.length, 1, 'one refund asked of Stripe');
  assert.equal(stripe.refunds[0].request.get('payment_intent'), session.payment_intent);
  assert.equal(stripe.refunds[0].request.get('amount'), String(total.amount));
  assert.equal(listed.json.refunds[0].reference, stripe.refunds[0].refund.id);
  await eventually('line disabled on the panel', async () => ({
    ok: [...panel.lines.values()].find((l) => l.username === username)?.enabled === 0,
  }));
});

test('a panel that fails: the job goes dead, and Retry provisions once the panel is back', async () => {
  panel.down();
  const placed = await placeOrder(server, uniqueEmail('panel-down'));
  await payOnSandbox(browser, server, placed);
  const id = placed.orderId;
  // Three attempts on a 1 s, 2 s backoff: dead within seconds.
  await eventually('provision job dead', async () => {
    const r = await adminGet(page, '/jobs?state=dead&limit=200');
    return { ok: r.json?.jobs?.some((j) => j.ref === id && j.kind === 'provision'), jobs: r.json?.jobs };
  });
  const waiting = await adminGet(page, `/orders/${encodeURIComponent(id)}`);
  assert.equal(waiting.json.lines[0].status, 'Pending', 'the line waits while the panel is down');
  assert.ok(![...panel.lines.values()].some((l) => l.username === waiting.json.lines[0].username), 'nothing on the panel');

  // The dashboard says so and leads to the dead jobs.
  await page.goto(`${server.url}/checkout/admin/`);
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  await page.getByRole('link', { name: /^\d+ dead jobs?$/ }).click();
  await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor();
  const row = page.getByRole('row').filter({ hasText: id }).filter({ hasText: 'provision' });
  await row.getByText(/HTTP 503/).waitFor();
  await row.getByText(/^dead$/i).waitFor();
  await visit(page, 'jobs-dead');

  panel.up();
  await row.getByRole('button', { name: 'Retry' }).click();
  await page.getByText(/Job \d+ queued to run now\./).waitFor();
  const done = await orderUntil(
    page,
    id,
    'order provisioned after the retry',
    (o) => o.order.status === 'active' && o.lines.length === 1 && o.lines[0].status.toLowerCase() === 'active' && o.lines[0].username,
  );
  assert.ok(
    [...panel.lines.values()].some((l) => l.username === done.lines[0].username),
    'the line exists on the panel',
  );
  await page.reload();
  await page.getByRole('row').filter({ hasText: id }).filter({ hasText: 'provision' }).waitFor({ state: 'detached' });
  await visit(page, 'jobs-retried');
});
