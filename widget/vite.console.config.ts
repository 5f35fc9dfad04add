// The seller's console (`npm run build:console`): a single-page app with its own entry
// (console/index.html), built into console/dist, which the Go binary embeds (widget/console/embed.go)
// and serves at /checkout/admin/ under a strict CSP (api/web/console.go). Unlike the widget it is
// an ordinary app build: hashed file names, one script and one style sheet, no inline code.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { narrowRequires, REACT } from './scripts/narrow-requires.ts';

const file = (p: string) => new URL(p, import.meta.url).pathname;

export default defineConfig(({ mode }) => ({
  root: file('./console'),
  base: '/checkout/admin/',
  // As in the widget's build (vite.config.ts): React's unused exports left out.
  plugins: [react(), ...(mode === 'test' ? [] : [narrowRequires(REACT)])],
  // console/public/.gitkeep keeps the tracked dist folder in place after emptyOutDir.
  publicDir: file('./console/public'),
  define: mode === 'test' ? {} : { 'process.env.NODE_ENV': '"production"' },
  build: {
    outDir: file('./console/dist'),
    emptyOutDir: true,
    target: 'es2022',
    minify: 'oxc',
    sourcemap: false,
    // The CSP allows no data: URLs; the preload polyfill would be an extra inline-free but useless module.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rolldownOptions: { output: { comments: false } },
  },
  test: {
    root: file('./console'),
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // One worker per core, not Vitest's default of one fewer (a single worker on two cores): the
    // tests wait on timers, streams and typed input about as long as they compute, so two workers
    // on two cores take the suite from 104 s to 79 s (the console's from 58 s to 36 s).
    maxWorkers: availableParallelism(),
    // Tests type into forms with user-event; two shared cores make that slow, not wrong.
    testTimeout: 20_000,
  },
}));
