// Precompresses the script-tag build once, at build time (`make widget` runs it after the Vite
// builds): for every .js and .css file in widget/dist, `<file>.br` (brotli, quality 11) and
// `<file>.gz` (gzip, level 9) beside it. The Go server (api/web) serves them to clients that
// accept them, brotli first, and ignores a copy that does not decompress to its file's bytes
// (a stale one from an older build).
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist', import.meta.url).pathname;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else yield p;
  }
}

let count = 0;
for (const p of [...files(dist)]) {
  if (/\.(br|gz)$/.test(p)) {
    // Copies whose file is gone (renamed chunks) would only sit in the binary.
    try {
      statSync(p.replace(/\.(br|gz)$/, ''));
    } catch {
      rmSync(p);
    }
    continue;
  }
  if (!/\.(m?js|css)$/.test(p)) continue;
  const body = readFileSync(p);
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  writeFileSync(`${p}.br`, br);
  writeFileSync(`${p}.gz`, gzipSync(body, { level: 9 }));
  count++;
}
console.log(`compress: ${count} files in widget/dist precompressed (.br, .gz)`);
