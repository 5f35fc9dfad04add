import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { narrowRequires, REACT } from './scripts/narrow-requires.ts';

const file = (p: string) => new URL(p, import.meta.url).pathname;

// ES2022 keeps class fields as they are (es2020 turned each into a defineProperty helper call). The
// widget's CSS already needs 2023 browsers (color-mix(), container queries), well past ES2022.
const TARGET = 'es2022';

// All builds: minified, ASCII only. A classic <script> without a charset is decoded with the host
// page's encoding (windows-1252 on a page without <meta charset>); escaped text survives any.
// Vite leaves an ES library unminified by default (whitespace kept); we ship it to browsers as is,
// so the ES builds also drop the /* @__PURE__ */ marks a library keeps for its users' bundlers.
const output = { minify: true, charset: 'ascii' as const, comments: false };

/**
 * dist/ names of the ES build's import() chunks: what each is, so the host pages and docs can name
 * them. A screens/ folder is dist/<folder>.js (checkout.js, order.js, aftersale.js), a text table
 * dist/locales/<code>-<area>.js; what two chunks share is a streamcart-<hash>.js.
 */
function chunkFileName(chunk: { facadeModuleId: string | null; isDynamicEntry: boolean }): string {
  const id = chunk.facadeModuleId ?? '';
  const screen = /\/src\/screens\/([a-z]+)\/index\.tsx?$/.exec(id);
  if (chunk.isDynamicEntry && screen) return `${screen[1]}.js`;
  const table = /\/src\/i18n\/([a-z-]+)\/([a-z]+)\.ts$/.exec(id);
  if (chunk.isDynamicEntry && table) return `locales/${table[1]}-${table[2]}.js`;
  return 'streamcart-[hash].js';
}

export default defineConfig(({ mode }) => {
  if (mode === 'classic') {
    // The classic script only imports the ES entry next to it (src/classic.ts).
    return {
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target: TARGET,
        minify: 'oxc',
        lib: { entry: 'src/classic.ts', name: 'Streamcart', formats: ['iife'], fileName: () => 'streamcart.iife.js' },
        rolldownOptions: { output },
      },
    };
  }
  const test = mode === 'test';
  return {
    // React's CommonJS files require one another whole; narrowed, the bundler drops the exports
    // nobody imports (scripts/narrow-requires.ts).
    plugins: [react(), ...(test ? [] : [narrowRequires(REACT)])],
    // Library mode does not replace process.env.NODE_ENV itself; React would ship its dev build.
    define: test ? {} : { 'process.env.NODE_ENV': '"production"' },
    resolve: {
      // react-shadow imports react-dom/server for its unused `ssr` prop, and prop-types for propTypes
      // React 19 ignores; the stubs keep them out.
      alias: test
        ? []
        : [
            { find: /^react-dom\/server$/, replacement: file('./src/stubs/react-dom-server.ts') },
            { find: /^prop-types$/, replacement: file('./src/stubs/prop-types.ts') },
          ],
    },
    build: {
      outDir: 'dist',
      // dist/.gitkeep is tracked: never wipe the folder.
      emptyOutDir: false,
      target: TARGET,
      minify: 'oxc',
      sourcemap: false,
      // The ES module with the public exports; its import() chunks are named by chunkFileName.
      lib: { entry: 'src/index.ts', formats: ['es'], fileName: () => 'streamcart.js' },
      // The chunks import what they share with the entry from streamcart.js itself: one file on the
      // first paint, not a facade and a shared chunk.
      rolldownOptions: { preserveEntrySignatures: 'allow-extension', output: { ...output, chunkFileNames: chunkFileName } },
    },
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
      setupFiles: ['src/test/setup.ts'],
      restoreMocks: true,
      // One worker per core, not Vitest's default of one fewer (a single worker on two cores): the
      // tests wait on timers, streams and typed input about as long as they compute, so two workers
      // on two cores take the suite from 104 s to 79 s (the console's from 58 s to 36 s).
      maxWorkers: availableParallelism(),
      // A test's first mount loads the lazy screens' chunks: on two cores shared with other work
      // that alone passed 5 s (aftersale.test.ts's first test, 5.4 s in CI). Slow, not wrong.
      testTimeout: 20_000,
      // The widget's CSS is part of what is tested (it must land in the shadow root).
      css: { include: [/\.css(\?|$)/] },
    },
  };
});
