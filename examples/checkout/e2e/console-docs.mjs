// The pictures of docs/console.md that no test takes as the docs show them: the catalog's form and
// its Advanced (YAML) view as a first screen (the test photographs the whole form, thousands of px
// tall), the catalog at 375 px as a viewer, and Line drift with differences to show (its story: a
// fresh shop has none; Storybook built first, `npm run build -w storybook`). The other pictures are
// the console tests' own (CONSOLE_SCREENSHOTS); docs/console.md says how to make them all.
//
//   node e2e/console-docs.mjs [dir]      (from examples/checkout; dir: docs/console by default)
import { createServer } from 'node:http';
import { mkdir, readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { freePort, launchBrowser, newPage, repoRoot, startServer, uniqueEmail } from './helpers.js';
import { addOperator, code, PASSWORD, payOnSandbox, placeOrder, signedInOperator } from './console-helpers.js';

const dir = process.argv[2] ? join(process.cwd(), process.argv[2]) : join(repoRoot, 'docs/console');
await mkdir(dir, { recursive: true });

const server = await startServer();
const browser = await launchBrowser();
try {
  const owner = await signedInOperator(browser, server, 'owner@example.com');
  await payOnSandbox(browser, server, await placeOrder(server, uniqueEmail('docs')));

  const desk = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await desk.context().addCookies(await owner.context().cookies());
  const settle = async (p) => {
    await p.waitForFunction(() => ![...document.querySelectorAll('[role="status"]')].some((e) => /^Loading…$/.test(e.textContent.trim())));
    await p.evaluate(() => document.getAnimations().forEach((a) => a.finish()));
  };

  await desk.goto(`${server.url}/checkout/admin/catalog`);
  await desk.getByTestId('catalog-form-editor').waitFor();
  await settle(desk);
  await desk.screenshot({ path: join(dir, 'catalog-form.png') });
  await desk.getByRole('button', { name: 'Advanced (YAML)' }).click();
  await desk
    .getByLabel(/^Catalog/)
    .first()
    .waitFor();
  await settle(desk);
  await desk.screenshot({ path: join(dir, 'catalog.png'), fullPage: true });

  // Line drift as its story shows it, served from the built Storybook.
  const root = join(repoRoot, 'storybook/storybook-static');
  const types = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.json': 'application/json',
    '.svg': 'image/svg+xml',
  };
  const files = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = await readFile(join(root, path));
      res.writeHead(200, { 'Content-Type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  const port = await freePort();
  await new Promise((ok) => files.listen(port, '127.0.0.1', ok));
  try {
    await desk.goto(`http://127.0.0.1:${port}/iframe.html?id=console-line-drift--default&viewMode=story`);
    await desk.getByRole('heading', { level: 1, name: 'Line drift' }).waitFor();
    await desk.getByText('stranger1').waitFor();
    await settle(desk);
    await desk.screenshot({ path: join(dir, 'line-drift.png') });
  } finally {
    files.close();
  }
  await desk.context().close();

  // A viewer on a phone: the catalog read only.
  const link = await addOperator(server, 'viewer@example.com', 'viewer');
  const phone = await newPage(browser, { viewport: { width: 375, height: 900 }, isMobile: true, hasTouch: true });
  await phone.goto(link);
  await phone.getByLabel('New password').fill(PASSWORD);
  await phone.getByLabel('Repeat the password').fill(PASSWORD);
  await phone.getByRole('button', { name: 'Continue' }).click();
  const secret = (await phone.getByTestId('totp-secret').innerText()).trim();
  const now = Date.now();
  await phone.getByLabel('Authenticator code').fill(code(secret, now));
  await phone.getByRole('button', { name: 'Finish setup' }).click();
  await phone.getByRole('link', { name: 'Go to sign-in' }).click();
  await phone.getByLabel('Email').fill('viewer@example.com');
  await phone.getByLabel('Password').fill(PASSWORD);
  await phone.getByLabel('Authenticator code').fill(code(secret, now + 30_000));
  await phone.getByRole('button', { name: 'Sign in' }).click();
  await phone.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  await phone.goto(`${server.url}/checkout/admin/catalog`);
  await phone.getByTestId('catalog-form-editor').waitFor();
  await settle(phone);
  await phone.screenshot({ path: join(dir, 'catalog-375.png') });
  console.log(`catalog-form.png, catalog.png, line-drift.png, catalog-375.png in ${dir}`);
} finally {
  await browser.close();
  await server.stop();
}
