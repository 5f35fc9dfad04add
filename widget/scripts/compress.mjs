// Precompresses the script-tag build once, at build time (`make widget` runs it after the Vite
// builds): for every .js and .css file in widget/dist, `<file>.br` (brotli, quality 11) and
// `<file>.gz` beside it. The Go server (api/web) serves them to clients that accept them, brotli
// first, and ignores a copy that does not decompress to its file's bytes (a stale one from an
// older build). The .gz is made by Zopfli: still plain gzip for the client, about 3.5% smaller
// than zlib's level 9 (3 KB off the first script), at a few seconds of build time spent once.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';

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
  writeFileSync(`${p}.gz`, await gzipAsync(body, { numiterations: 15 }));
  count++;
}
console.log(`compress: ${count} files in widget/dist precompressed (.br, .gz)`);
