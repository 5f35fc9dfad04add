// Prints raw, gzip and brotli sizes of the built bundles and locale tables (node zlib, maximum
// compression), and checks that every file is pure ASCII (a classic script is decoded with the host
// page's charset).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const bundles = ['dist/streamcart.js', 'dist/streamcart.iife.js'];
const locales = existsSync('dist/locales') ? readdirSync('dist/locales').filter((f) => f.endsWith('.js')).sort().map((f) => `dist/locales/${f}`) : [];
let failed = false;
let largestLocale = 0;

function measure(f) {
  const buf = readFileSync(f);
  const gz = gzipSync(buf, { level: 9 }).length;
  const br = brotliCompressSync(buf, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length },
  }).length;
  const nonAscii = buf.filter((b) => b > 0x7f).length;
  if (nonAscii) failed = true;
  console.log(`${f.padEnd(28)}${kb(buf.length).padStart(10)}${kb(gz).padStart(10)}${kb(br).padStart(10)}${nonAscii ? `  ${nonAscii} non-ASCII bytes!` : ''}`);
  return gz;
}

console.log(`${'file'.padEnd(28)}${'raw'.padStart(10)}${'gzip'.padStart(10)}${'brotli'.padStart(10)}`);
const sizes = {};
for (const f of bundles) {
  if (!existsSync(f)) {
    console.log(`${f.padEnd(28)} missing: run npm run build -w widget`);
    failed = true;
    continue;
  }
  sizes[f] = measure(f);
}
for (const f of locales) largestLocale = Math.max(largestLocale, measure(f));
// The after-sale screens (sign-in, services, upsell, resellers): loaded on first use only.
const afterSale = 'dist/aftersale.js';
if (existsSync(afterSale)) measure(afterSale);
else {
  console.log(`${afterSale.padEnd(28)} missing: run npm run build -w widget`);
  failed = true;
}
if (sizes['dist/streamcart.iife.js']) {
  console.log(`script-tag page, English: ${kb(sizes['dist/streamcart.iife.js'])} gzip; other locales add at most ${kb(largestLocale)}`);
}
process.exitCode = failed ? 1 : 0;
