// The React host example's own origin (default http://127.0.0.1:8082): serves the built app
// (examples/react-host/dist, `npm run build -w examples/react-host`) and writes the shop's origin
// and the storefront key into the page. No dependencies.
//
//   STREAMCART_API_ORIGIN  the shop (default http://127.0.0.1:8080)
//   STORE_KEY              publishable key (default pk_test_react)
//   PORT / HOST            where this site listens (default 8082 on 127.0.0.1)
// Flags --api-origin, --store, --port and --host override the environment.
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'api-origin': { type: 'string' },
    store: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
  },
});
const apiOrigin = (values['api-origin'] ?? process.env.STREAMCART_API_ORIGIN ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const store = values.store ?? process.env.STORE_KEY ?? 'pk_test_react';
const port = Number(values.port ?? process.env.PORT ?? 8082);
const host = values.host ?? process.env.HOST ?? '127.0.0.1';

const root = fileURLToPath(new URL('./dist/', import.meta.url));
if (!existsSync(join(root, 'index.html'))) {
  console.error(`${root}index.html is missing: run npm run build -w examples/react-host first`);
  process.exit(1);
}

const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const page = readFileSync(join(root, 'index.html'), 'utf8')
  .replaceAll('{{API_ORIGIN}}', escape(apiOrigin))
  .replaceAll('{{STORE_KEY}}', escape(store));

const TYPES = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const { pathname } = new URL(req.url, 'http://x');
  // Built files have content hashes in their names: cached for good.
  if (pathname.startsWith('/assets/')) {
    let file;
    try {
      file = normalize(join(root, decodeURIComponent(pathname)));
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('bad path\n');
      return;
    }
    const body = file.startsWith(join(root, 'assets') + sep) && TYPES[extname(file)] ? await readFile(file).catch(() => null) : null;
    if (!body) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)], 'Cache-Control': 'public, max-age=31536000, immutable' });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  if (pathname === '/favicon.ico') {
    res.writeHead(404).end();
    return;
  }
  // Every other path is the app: the widget keeps its state in memory and the query
  // (?sc_order=… after the payment page), so any URL may come back here.
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : page);
});
server.listen(port, host, () => {
  console.log(`react host on http://${host}:${server.address().port}/ (shop ${apiOrigin}, key ${store})`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
