// A reseller's site on its own origin (default http://127.0.0.1:8081): one page embedding the
// checkout from the shop with the reseller's publishable key. No dependencies.
//
//   STREAMCART_API_ORIGIN  the shop (default http://127.0.0.1:8080)
//   STORE_KEY              publishable key (default pk_test_reseller)
//   PORT / HOST            where this site listens (default 8081 on 127.0.0.1)
// Flags --api-origin, --store, --port and --host override the environment.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
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
const store = values.store ?? process.env.STORE_KEY ?? 'pk_test_reseller';
const port = Number(values.port ?? process.env.PORT ?? 8081);
const host = values.host ?? process.env.HOST ?? '127.0.0.1';

const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const page = readFileSync(new URL('./index.html', import.meta.url), 'utf8')
  .replaceAll('{{API_ORIGIN}}', escape(apiOrigin))
  .replaceAll('{{STORE_KEY}}', escape(store));

const logo = readFileSync(new URL('./logo.svg', import.meta.url));

const server = createServer((req, res) => {
  const { pathname } = new URL(req.url, 'http://x');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  // The storefront's logo (api/catalog/demo.yaml names it); the widget shows it above the plans.
  if (pathname === '/logo.svg') {
    res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : logo);
    return;
  }
  // Every path is the page: the widget keeps its state in the query (memory routing).
  if (pathname === '/favicon.ico') {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : page);
});
server.listen(port, host, () => {
  console.log(`reseller site on http://${host}:${server.address().port}/ (shop ${apiOrigin}, key ${store})`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
