// Prints raw, gzip and brotli sizes of the built bundles (node zlib, maximum compression).
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const files = ['dist/streamcart.js', 'dist/streamcart.iife.js'];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let missing = false;
console.log(`${'file'.padEnd(26)}${'raw'.padStart(11)}${'gzip'.padStart(11)}${'brotli'.padStart(11)}`);
for (const f of files) {
  if (!existsSync(f)) {
    console.log(`${f.padEnd(26)} missing: run npm run build -w widget`);
    missing = true;
    continue;
  }
  const buf = readFileSync(f);
  const gz = gzipSync(buf, { level: 9 }).length;
  const br = brotliCompressSync(buf, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length },
  }).length;
  // A classic script is decoded with the host page's charset: the bundle must be pure ASCII.
  const nonAscii = buf.filter((b) => b > 0x7f).length;
  console.log(`${f.padEnd(26)}${kb(buf.length).padStart(11)}${kb(gz).padStart(11)}${kb(br).padStart(11)}${nonAscii ? `  ${nonAscii} non-ASCII bytes!` : ''}`);
  if (nonAscii) missing = true;
}
process.exitCode = missing ? 1 : 0;
