// Lighthouse (mobile form factor, simulated throttling: Lighthouse's defaults) on a page of a freshly
// started `streamcart serve`, in Debian's Chromium. It REPORTS the scores, it asserts none of them:
// they depend on the machine's speed. It fails only when the run itself fails.
//
// Usage: node examples/checkout/bench/lighthouse.mjs [runs=1] [path=/checkout/]
//   LIGHTHOUSE_OUT=<dir>  where the JSON reports and summary.txt go (default bin/lighthouse)
//   STREAMCART_URL        measures a server already running instead of starting bin/streamcart
//   CHROMIUM              the browser (default /usr/bin/chromium; never downloaded)
// With several runs the summary shows each run and the median (Lighthouse's own advice for
// variance: https://github.com/GoogleChrome/lighthouse/blob/main/docs/variability.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM, repoRoot, startServer } from '../e2e/helpers.js';

const runs = Math.max(1, Number(process.argv[2] ?? 1));
const path = process.argv[3] ?? '/checkout/';
const out = process.env.LIGHTHOUSE_OUT ?? join(repoRoot, 'bin/lighthouse');
mkdirSync(out, { recursive: true });

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--mute-audio',
];

/** The figures we track, from one Lighthouse result (lhr). */
function figures(lhr) {
  const a = lhr.audits;
  const api = (a['network-requests']?.details?.items ?? [])
    .map((r) => new URL(r.url))
    .filter((u) => u.pathname.includes('/api/'))
    .map((u) => u.pathname + u.search);
  const counts = {};
  for (const p of api) counts[p] = (counts[p] ?? 0) + 1;
  return {
    performance: lhr.categories.performance.score,
    accessibility: lhr.categories.accessibility.score,
    cls: a['cumulative-layout-shift'].numericValue,
    tbt: a['total-blocking-time'].numericValue,
    fcp: a['first-contentful-paint'].numericValue,
    lcp: a['largest-contentful-paint'].numericValue,
    si: a['speed-index'].numericValue,
    benchmarkIndex: lhr.environment?.benchmarkIndex,
    apiRequests: counts,
    failedA11y: Object.values(lhr.categories.accessibility.auditRefs)
      .map((ref) => a[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1)
      .map((audit) => audit.id),
    shifts: (a['layout-shifts']?.details?.items ?? []).map((i) => ({
      score: Number(i.score?.toFixed?.(4) ?? i.score),
      node: i.node?.selector ?? i.node?.snippet ?? '',
    })),
  };
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function line(f) {
  return (
    `performance ${f.performance.toFixed(2)}  CLS ${f.cls.toFixed(3)}  TBT ${Math.round(f.tbt)} ms  ` +
    `accessibility ${f.accessibility.toFixed(2)}  FCP ${Math.round(f.fcp)} ms  LCP ${Math.round(f.lcp)} ms  SI ${Math.round(f.si)} ms`
  );
}

const server = await startServer({ env: { STREAMCART_EXAMPLES: 'true' } }); // path may be an example page
const results = [];
try {
  for (let i = 0; i < runs; i++) {
    // A fresh browser (and profile) per run: a cold cache, no service worker from the run before.
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    try {
      const result = await lighthouse(server.url + path, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
      });
      if (!result?.lhr) throw new Error('lighthouse returned no result');
      if (result.lhr.runtimeError) throw new Error(`lighthouse: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
      writeFileSync(join(out, `report-${i + 1}.json`), result.report);
      results.push(figures(result.lhr));
    } finally {
      await chrome.kill();
    }
  }
} finally {
  await server.stop();
}

const lines = [`Lighthouse ${path} (mobile, simulated throttling, ${CHROMIUM}), ${runs} run(s), ${new Date().toISOString()}`];
results.forEach((f, i) => lines.push(`run ${i + 1}: ${line(f)}  (benchmarkIndex ${Math.round(f.benchmarkIndex ?? 0)})`));
if (runs > 1) {
  const m = {};
  for (const k of ['performance', 'accessibility', 'cls', 'tbt', 'fcp', 'lcp', 'si']) m[k] = median(results.map((f) => f[k]));
  lines.push(`median: ${line(m)}`);
}
const last = results.at(-1);
lines.push('API requests on load (last run):');
for (const [p, n] of Object.entries(last.apiRequests)) lines.push(`  ${n}× ${p}`);
if (last.failedA11y.length) lines.push(`accessibility audits not passed: ${last.failedA11y.join(', ')}`);
if (last.shifts.length) {
  lines.push('layout shifts (last run):');
  for (const s of last.shifts) lines.push(`  ${s.score}  ${s.node}`);
}
lines.push(`reports: ${out}/report-*.json`);
const text = lines.join('\n') + '\n';
writeFileSync(join(out, 'summary.txt'), text);
process.stdout.write(text);
