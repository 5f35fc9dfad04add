// The widget's size report (`npm run size -w widget`, `make size`).
//
// 1. Every built file: raw, gzip and brotli (node zlib, maximum compression), and a check that each
//    is pure ASCII (a classic script is decoded with the host page's charset).
// 2. The budget: everything a buyer downloads before the plan cards paint on examples/plain-html
//    (one classic script tag), measured in Chromium against the real server: the binary is built
//    from the current tree (so it embeds this dist/), started on a fresh database, and the page is
//    loaded with a cold cache. Counted: every JS, CSS, font and API response the page asked for
//    before the first plan card was in a painted frame, at its size on the wire (gzip where the
//    server compresses, the JSON as served). The same files are then asked for again with
//    `Accept-Encoding: gzip` and with `Accept-Encoding: br, gzip` and their bodies counted as the
//    server sends them (precompressed widget files and the API's JSON, brotli first): the
//    first paint for a gzip-only client and for a brotli client. Fails (exit 1) above BUDGET_KB
//    (gzip) or BUDGET_BR_KB (brotli).
//
// Options: --static skips the browser part; STREAMCART_URL measures a server already running;
// CHROMIUM names the browser (Debian's /usr/bin/chromium by default).
import { execFileSync, spawn } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const BUDGET_KB = 85;
const BUDGET_BR_KB = 75;
const PAGE = '/examples/plain-html/';
const widget = new URL('..', import.meta.url).pathname;
const repo = new URL('../..', import.meta.url).pathname;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let failed = false;

function compressed(buf) {
  return {
    raw: buf.length,
    gzip: gzipSync(buf, { level: 9 }).length,
    brotli: brotliCompressSync(buf, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length },
    }).length,
  };
}

function row(name, s, note = '') {
  console.log(`${name.padEnd(30)}${kb(s.raw).padStart(10)}${kb(s.gzip).padStart(10)}${kb(s.brotli).padStart(10)}${note}`);
}

// ---- 1. the files --------------------------------------------------------------------------------

const dist = join(widget, 'dist');
// The files the host pages name, then every other file of the build (its import() chunks).
const named = ['streamcart.js', 'streamcart.iife.js', 'checkout.js'];
const built = existsSync(dist)
  ? readdirSync(dist, { recursive: true })
      .filter((f) => f.endsWith('.js'))
      .sort()
  : [];
const files = [...named, ...built.filter((f) => !named.includes(f))];
console.log(`${'file (dist/)'.padEnd(30)}${'raw'.padStart(10)}${'gzip'.padStart(10)}${'brotli'.padStart(10)}`);
for (const f of files) {
  const path = join(dist, f);
  if (!existsSync(path)) {
    console.log(`${f.padEnd(30)} missing: run npm run build -w widget`);
    failed = true;
    continue;
  }
  const buf = readFileSync(path);
  const nonAscii = buf.filter((b) => b > 0x7f).length;
  if (nonAscii) failed = true;
  row(f, compressed(buf), nonAscii ? `  ${nonAscii} non-ASCII bytes!` : '');
}

// ---- 2. the first paint in Chromium ----------------------------------------------------------------

/** A TCP port on 127.0.0.1 that nothing listens on. */
function freePort() {
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
 * `bin serve` on a free port with a fresh database in dir and the examples on (the page measured
 * is one), resolved once /readyz answers. Rate limits are off, as in the e2e suite: the files are
 * asked for again below.
 */
async function startShop(bin, dir) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--db', join(dir, 'shop.db')], {
    env: { ...process.env, STREAMCART_EXAMPLES: 'true', STREAMCART_RATE_LIMITS: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (b) => {
    output += b;
  });
  child.stderr.on('data', (b) => {
    output += b;
  });
  const exited = new Promise((ok) => child.once('exit', (code, signal) => ok({ code, signal })));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  for (const deadline = Date.now() + 30_000; ;) {
    const gone = await Promise.race([exited, new Promise((ok) => setTimeout(() => ok(null), 100))]);
    if (gone) throw new Error(`streamcart exited before it was ready (${JSON.stringify(gone)}):\n${output}`);
    if (
      await fetch(`${url}/readyz`).then(
        (res) => res.ok,
        () => false,
      )
    )
      return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`streamcart did not become ready on ${url}:\n${output}`);
    }
  }
}

/** Chromium headless with a fresh profile (playwright-core is loaded only for this part). */
async function launchBrowser() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
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

/** Resolves with the page's resources requested before the first plan card was painted. */
async function firstPaint(url) {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    // Checked in every animation frame: the frame that first has a plan card is the one that paints it.
    await page.addInitScript(() => {
      const check = () => {
        const card = document.querySelector('streamcart-checkout')?.shadowRoot?.querySelector('[data-testid="plan-card"]');
        if (card) window.__planCardsAt = performance.now();
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
    await page.goto(url + PAGE);
    await page.waitForFunction(() => window.__planCardsAt !== undefined, null, { timeout: 30_000 });
    // Let what was under way finish so that its sizes are known, and show what loads after.
    await page.waitForLoadState('networkidle');
    return await page.evaluate(() => {
      const at = window.__planCardsAt;
      const out = [];
      for (const e of performance.getEntriesByType('resource')) {
        out.push({
          name: e.name,
          before: e.startTime < at,
          encoded: e.encodedBodySize,
          decoded: e.decodedBodySize,
          transferred: e.transferSize,
        });
      }
      return { at, resources: out };
    });
  } finally {
    await browser.close();
  }
}

function kind(name) {
  if (/\/api\//.test(name)) return 'api';
  if (/\.m?js(\?|$)/.test(name)) return 'js';
  if (/\.css(\?|$)/.test(name)) return 'css';
  if (/\.(woff2?|ttf|otf)(\?|$)/.test(name)) return 'font';
  return 'other';
}

/** The body size of url as the server sends it for this Accept-Encoding (not decoded). */
function servedSize(url, acceptEncoding) {
  return new Promise((ok, fail) => {
    const req = request(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      let n = 0;
      res.on('data', (b) => {
        n += b.length;
      });
      res.on('end', () => ok({ bytes: n, encoding: res.headers['content-encoding'] ?? 'identity', status: res.statusCode }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

async function measure() {
  let dir = null;
  let server = { url: process.env.STREAMCART_URL?.replace(/\/$/, ''), stop: async () => {} };
  try {
    if (!server.url) {
      // A binary of the current tree: it embeds widget/dist as built just now.
      dir = mkdtempSync(join(tmpdir(), 'streamcart-size-'));
      const bin = join(dir, 'streamcart');
      execFileSync('go', ['build', '-o', bin, './api/cmd/streamcart'], { cwd: repo, stdio: 'inherit' });
      server = await startShop(bin, dir);
    }
    const { at, resources } = await firstPaint(server.url);
    console.log(`\nexamples/plain-html, first plan card painted at ${at.toFixed(0)} ms; requested before then:`);
    let total = 0;
    for (const r of resources.filter((x) => x.before)) {
      const path = new URL(r.name).pathname + new URL(r.name).search;
      console.log(`  ${kind(r.name).padEnd(5)} ${path.padEnd(58)} ${kb(r.encoded).padStart(9)} on the wire (${kb(r.decoded)} decoded)`);
      if (kind(r.name) !== 'other') total += r.encoded;
    }
    const after = resources.filter((x) => !x.before);
    if (after.length) {
      console.log('requested after the plan cards painted (not counted):');
      for (const r of after) console.log(`  ${kind(r.name).padEnd(5)} ${new URL(r.name).pathname.padEnd(58)} ${kb(r.encoded).padStart(9)}`);
    }
    console.log(`first paint in Chromium: ${kb(total)} (JS, CSS, fonts and API JSON as Chromium got them)`);
    // The same resources for a gzip-only client and for a brotli one. (The API's POSTs, if any, are
    // counted as Chromium got them.)
    const counted = resources.filter((x) => x.before && kind(x.name) !== 'other');
    for (const [label, accept, budget] of [
      ['gzip', 'gzip', BUDGET_KB],
      ['brotli', 'br, gzip', BUDGET_BR_KB],
    ]) {
      let sum = 0;
      const parts = [];
      for (const r of counted) {
        const isGet = !/\/api\/(quote|orders|session)/.test(r.name);
        const served = isGet ? await servedSize(r.name, accept) : { bytes: r.encoded, encoding: 'as got' };
        sum += served.bytes;
        parts.push(`${new URL(r.name).pathname.split('/').pop() || '/'} ${kb(served.bytes)} ${served.encoding}`);
      }
      const over = sum > budget * 1024;
      console.log(
        `first paint, ${label.padEnd(6)} client: ${kb(sum)} (${sum} B, ${budget * 1024 - sum} B to spare); budget ${budget} KB${over ? ' EXCEEDED' : ''}  (${parts.join(', ')})`,
      );
      if (over) failed = true;
    }
  } finally {
    await server.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

if (!process.argv.includes('--static')) {
  try {
    await measure();
  } catch (e) {
    console.error(`first-paint measurement failed: ${e instanceof Error ? e.message : e}`);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
