// Measures, in Chromium, how long /checkout/ takes from navigation to the plan cards being visible,
// and the bytes downloaded before then (JS, CSS, fonts, API JSON; raw and as transferred).
// Usage: node examples/checkout/bench/plans-visible.mjs [runs=10] [path=/checkout/]
import { launchBrowser, startServer } from '../e2e/helpers.js';

const runs = Number(process.argv[2] ?? 10);
const path = process.argv[3] ?? '/checkout/';
const server = await startServer({ env: { STREAMCART_EXAMPLES: 'true' } }); // path may be an example page
const browser = await launchBrowser();
const times = [];
let bytes;
try {
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } }); // cold cache each run
    const page = await context.newPage();
    const start = Date.now();
    await page.goto(server.url + path);
    await page.locator('[data-testid="plan-card"]').first().waitFor({ state: 'visible' });
    const visibleAt = await page.evaluate(() => performance.now());
    times.push(visibleAt);
    if (i === 0) {
      bytes = await page.evaluate((t) => {
        const out = {};
        for (const e of performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))) {
          if (e.responseEnd > t) continue;
          const kind =
            e.entryType === 'navigation'
              ? 'html'
              : /\.js(\?|$)/.test(e.name)
                ? 'js'
                : /\.css(\?|$)/.test(e.name)
                  ? 'css'
                  : /\/api\//.test(e.name)
                    ? 'api'
                    : /\.(woff2?|ttf)(\?|$)/.test(e.name)
                      ? 'font'
                      : 'other';
          out[kind] ??= { files: 0, decoded: 0, transferred: 0 };
          out[kind].files++;
          out[kind].decoded += e.decodedBodySize;
          out[kind].transferred += e.transferSize;
        }
        return out;
      }, visibleAt);
    }
    void start;
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
times.sort((a, b) => a - b);
const pct = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(0);
console.log(
  `plan cards visible after navigation start (${runs} cold runs): median ${pct(0.5)} ms, p90 ${pct(0.9)} ms, min ${times[0].toFixed(0)} ms`,
);
console.log('bytes before the plan cards were visible (decoded / transferred incl. headers):');
for (const [kind, b] of Object.entries(bytes)) console.log(`  ${kind.padEnd(6)} ${b.files} files  ${b.decoded} B  ${b.transferred} B`);
