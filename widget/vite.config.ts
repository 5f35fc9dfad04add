import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { checkoutChunk, checkoutKit, cssSplit, swapped } from './scripts/checkout-split.ts';

const file = (p: string) => new URL(p, import.meta.url).pathname;

const LAZY_LOCALES = ['de-de', 'es-es', 'nl-nl', 'pt-pt'] as const;

// In the script-tag builds the translated tables are not bundled: messages.ts gets load.lazy.ts,
// which imports dist/locales/<code>.js on demand (built by `vite build --mode locales`). The same
// way, the checkout after the plan cards comes from dist/checkout.js (`--mode checkout`; App's
// parts.ts gets parts.lazy.tsx) and the after-sale screens from dist/aftersale.js. The swaps are
// listed in scripts/checkout-split.ts (SWAPS), whose import scan follows them.
const lazyModules: Plugin = {
  name: 'streamcart-lazy-modules',
  enforce: 'pre',
  resolveId(source, importer) {
    return importer ? swapped(importer, source) : null;
  },
};

// ES2022 keeps class fields as they are (es2020 turned each into a defineProperty helper call). The
// widget's CSS already needs 2023 browsers (color-mix(), container queries), well past ES2022.
const TARGET = 'es2022';

// All builds: minified, ASCII only. A classic <script> without a charset is decoded with the host
// page's encoding (windows-1252 on a page without <meta charset>); escaped text survives any.
// Vite leaves an ES library unminified by default (whitespace kept); we ship it to browsers as is,
// so the ES builds also drop the /* @__PURE__ */ marks a library keeps for its users' bundlers.
const output = { minify: true, charset: 'ascii' as const, comments: false };

// dist/aftersale.js gets the page's React and the main bundle's shared modules at load time (see
// src/aftersale/entry.ts): 'react', its JSX runtime and ./shared resolve to live-binding shims.
const afterSaleShims: Plugin = {
  name: 'streamcart-aftersale-shims',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === 'react') return file('./src/aftersale/shim/react.ts');
    if (source === 'react/jsx-runtime') return file('./src/aftersale/shim/jsx-runtime.ts');
    if (/^\.{1,2}\/(\.\.\/)*shared$/.test(source) && importer?.includes('/src/aftersale/')) return file('./src/aftersale/shared.remote.ts');
    if (importer?.includes('/src/aftersale/') && /\/(flow|element)\//.test(source)) {
      this.error(`${importer} imports ${source}: the after-sale module may only reach the main bundle through ./shared`);
    }
    return null;
  },
};

export default defineConfig(({ mode }) => {
  if (mode === 'aftersale') {
    return {
      plugins: [react(), afterSaleShims],
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target: TARGET,
        minify: 'oxc',
        lib: { entry: 'src/aftersale/entry.ts', formats: ['es'], fileName: () => 'aftersale.js' },
        rolldownOptions: { output },
      },
    };
  }
  if (mode === 'checkout') {
    return {
      plugins: [react(), checkoutChunk(), cssSplit('chunk')],
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: 'dist',
        emptyOutDir: false,
        target: TARGET,
        minify: 'oxc',
        lib: { entry: 'src/checkout/entry.ts', formats: ['es'], fileName: () => 'checkout.js' },
        // One file: install()'s import('./checkout') stays a lazily run part of it (see entry.ts).
        rolldownOptions: { output: { ...output, codeSplitting: false } },
      },
    };
  }
  if (mode === 'locales') {
    return {
      build: {
        outDir: 'dist/locales',
        emptyOutDir: false,
        target: TARGET,
        minify: 'oxc',
        lib: {
          entry: Object.fromEntries(LAZY_LOCALES.map((code) => [code, `src/i18n/${code}.ts`])),
          formats: ['es'],
          fileName: (_format, name) => `${name}.js`,
        },
        rolldownOptions: { output },
      },
    };
  }
  const test = mode === 'test';
  const classic = mode === 'classic';
  return {
    plugins: test ? [react()] : [react(), lazyModules, checkoutKit(), cssSplit('first')],
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
      // Two passes: the ES module (with the public exports), then `--mode classic`: the IIFE from an
      // entry without exports, so a plain <script> adds no global to the page.
      lib: classic
        ? { entry: 'src/classic.ts', name: 'Streamcart', formats: ['iife'], fileName: () => 'streamcart.iife.js' }
        : { entry: 'src/index.ts', formats: ['es'], fileName: () => 'streamcart.js' },
      rolldownOptions: {
        output,
        onwarn(warning, warn) {
          // load.lazy.ts reads import.meta.url and falls back to document.currentScript in the
          // classic build, where import.meta is an empty object on purpose.
          if (warning.code === 'EMPTY_IMPORT_META') return;
          warn(warning);
        },
      },
    },
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
      setupFiles: ['src/test/setup.ts'],
      restoreMocks: true,
      // The widget's CSS is part of what is tested (it must land in the shadow root).
      css: { include: [/widget\.css/] },
    },
  };
});
