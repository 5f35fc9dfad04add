// Shared end-to-end helpers: a real `streamcart serve` on a free port with a
// fresh SQLite file, and the system Chromium driven by playwright-core.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '../../..');
export const BIN = process.env.STREAMCART_BIN ?? join(repoRoot, 'bin/streamcart');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const SHOTS = process.env.E2E_SCREENSHOTS ?? '';

/** freePort asks the kernel for an unused TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/**
 * startServer runs `bin/streamcart serve --addr 127.0.0.1:<port> --db <tmp>/s.db`
 * and resolves once /readyz answers 200. env adds settings; a function of the server's URL when
 * a setting names it (STREAMCART_PUBLIC_URL). STREAMCART_URL points the tests at a server that is
 * already running instead.
 */
export async function startServer({ env = {} } = {}) {
  if (process.env.STREAMCART_URL) {
    return { url: process.env.STREAMCART_URL.replace(/\/$/, ''), stop: async () => {}, log: () => '' };
  }
  const dir = await mkdtemp(join(tmpdir(), 'streamcart-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(BIN, ['serve', '--addr', `127.0.0.1:${port}`, '--db', join(dir, 's.db')], {
    // The suite places many orders from 127.0.0.1: the per-address limits have their own tests.
    env: { ...process.env, STREAMCART_RATE_LIMITS: 'off', ...(typeof env === 'function' ? env(url) : env) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (b) => {
    output += b;
  });
  child.stderr.on('data', (b) => {
    output += b;
  });
  const exited = new Promise((ok) => child.once('exit', (code, signal) => ok({ code, signal })));
  // Never leave a server behind, even when a test run dies half-way.
  const reap = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', reap);

  let ready = false;
  const deadline = Date.now() + 30_000;
  while (!ready && Date.now() < deadline) {
    const gone = await Promise.race([exited, new Promise((ok) => setTimeout(() => ok(null), 100))]);
    if (gone) throw new Error(`streamcart exited before it was ready (${JSON.stringify(gone)}):\n${output}`);
    try {
      const res = await fetch(`${url}/readyz`);
      ready = res.ok;
    } catch {
      // not listening yet
    }
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`streamcart did not become ready on ${url}:\n${output}`);
  }
  return {
    url,
    db: join(dir, 's.db'),
    log: () => output,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', reap);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** launchBrowser starts the system Chromium headless with a fresh profile. */
export function launchBrowser() {
  return chromium.launch({
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
}

/**
 * newPage opens a page in its own context (own cookies, storage and service
 * workers). Console errors and CSP violations are collected in page.problems.
 */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...options });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.problems.push(msg.text());
  });
  page.on('pageerror', (err) => page.problems.push(`pageerror: ${err.message}`));
  return page;
}

/** shot saves a full-page screenshot when E2E_SCREENSHOTS names a directory. */
export async function shot(page, name) {
  if (!SHOTS) return;
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** widget returns a locator scoped to the widget's open shadow root (Playwright pierces it). */
export function widget(page) {
  return page.locator('streamcart-checkout');
}

/** whenWidgetReady resolves with the detail of streamcart:ready (or the current state when already fired). */
export async function gotoReady(page, url) {
  await page.addInitScript(() => {
    window.__streamcartReady = new Promise((ok) => {
      document.addEventListener('streamcart:ready', (e) => ok(e.detail), { once: true });
    });
  });
  const res = await page.goto(url);
  const detail = await page.evaluate(() => window.__streamcartReady);
  return { res, detail };
}

export const EVENTS = [
  'streamcart:ready',
  'streamcart:plan-selected',
  'streamcart:order-created',
  'streamcart:payment-started',
  'streamcart:order-paid',
  'streamcart:service-ready',
  'streamcart:session-changed',
  'streamcart:locale-changed',
  'streamcart:currency-changed',
  'streamcart:error',
];

/**
 * recordEvents keeps every streamcart:* event of every page load of this
 * page in sessionStorage (the flow leaves for the payment page and back).
 */
export async function recordEvents(page) {
  await page.addInitScript((names) => {
    for (const name of names) {
      document.addEventListener(name, (e) => {
        const list = JSON.parse(sessionStorage.getItem('e2e:events') ?? '[]');
        list.push({ type: e.type, detail: e.detail, path: location.pathname });
        sessionStorage.setItem('e2e:events', JSON.stringify(list));
      });
    }
  }, EVENTS);
}

export function events(page) {
  return page.evaluate(() => JSON.parse(sessionStorage.getItem('e2e:events') ?? '[]'));
}

/** persisted reads the widget's `checkout` cookie (JSON, URI-encoded). */
export async function persisted(page) {
  const c = (await page.context().cookies()).find((x) => x.name === 'checkout');
  return c ? JSON.parse(decodeURIComponent(c.value)) : null;
}

/** api calls the shop's API from the test process. */
export async function api(server, path, { token, method = 'GET', body } = {}) {
  const res = await fetch(`${server.url}/checkout/api${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, json, text };
}

/**
 * givePassword gives the client of email a sign-in password as a buyer would: a sign-in link
 * (read from the shop's outbox with `streamcart mail`), redeemed for a proven session, which sets
 * the password. A password alone never does (docs/security.md).
 */
export async function givePassword(server, email, password) {
  const sent = await api(server, '/session/link', { method: 'POST', body: { email } });
  if (sent.status !== 202) throw new Error(`sign-in link for ${email}: ${sent.status} ${sent.text}`);
  const run = promisify(execFile);
  const { stdout: list } = await run(BIN, ['mail', 'list', '--db', server.db]);
  const row = list.split('\n').find((l) => l.includes(` ${email} `));
  if (!row) throw new Error(`no sign-in mail for ${email} in:\n${list}`);
  const { stdout: mail } = await run(BIN, ['mail', 'show', row.trim().split(/\s+/)[0], '--db', server.db]);
  const token = /[?&]signin=([\w-]+)/.exec(mail)?.[1];
  if (!token) throw new Error(`no sign-in token in:\n${mail}`);
  const proven = await api(server, `/session/link/${token}`, { method: 'POST' });
  if (proven.status !== 201 && proven.status !== 200) throw new Error(`redeem: ${proven.status} ${proven.text}`);
  const set = await api(server, '/session/password', { method: 'PUT', token: proven.json.token, body: { password } });
  if (set.status >= 300) throw new Error(`set password: ${set.status} ${set.text}`);
}

let emailCounter = 0;
/** uniqueEmail gives every purchase its own customer. */
export function uniqueEmail(tag) {
  emailCounter += 1;
  return `${tag}-${process.pid}-${Date.now().toString(36)}-${emailCounter}@example.com`;
}

/**
 * startExample runs an example's server.mjs (examples/<name>/server.mjs --port --api-origin) and
 * resolves once it prints `ready`; stop() ends it, and it never outlives the test process.
 */
export async function startExample(name, port, apiOrigin, ready) {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'examples', name, 'server.mjs'), '--port', String(port), '--api-origin', apiOrigin],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr.on('data', (b) => {
    output += b;
  });
  const reap = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', reap);
  await new Promise((ok, fail) => {
    child.stdout.on('data', (b) => {
      output += b;
      if (output.includes(ready)) ok();
    });
    child.once('exit', (code) => fail(new Error(`${name} exited (${code}):\n${output}`)));
  });
  return {
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((ok) => child.once('exit', ok));
        child.kill('SIGTERM');
        await gone;
      }
      process.off('exit', reap);
    },
  };
}
