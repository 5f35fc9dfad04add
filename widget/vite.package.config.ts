// The npm package build (`npm run build:package`): lib/index.js for apps with their own bundler.
// Unlike the script-tag builds of vite.config.ts (dist/, embedded in the Go binary), React is not
// bundled: react, react-dom and the JSX runtime stay imports the app resolves (peerDependencies),
// so the page runs one React. Locale tables and the screens after the plan cards are ordinary dynamic-import
// chunks (lib/chunks/), loaded relative to the module by the app's bundler, not from a script URL.
import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const file = (p: string) => new URL(p, import.meta.url).pathname;

// The public types are written by hand (types/index.d.ts, checked against the source by
// types/check.ts) and ship next to the module.
const declarations: Plugin = {
  name: 'streamcart-package-types',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'index.d.ts', source: readFileSync(file('./types/index.d.ts'), 'utf8') });
  },
};

// react-dom/server is the one React entry that is not external: react-shadow imports it for an
// `ssr` prop the widget never sets, and the stub keeps the server renderer out of the app's bundle.
const PEER = /^(react|react-dom)(\/.*)?$/;
const external = (id: string) => (PEER.test(id) && id !== 'react-dom/server') || /^valibot(\/|$)/.test(id);

export default defineConfig({
  plugins: [react(), declarations],
  resolve: {
    alias: [{ find: /^react-dom\/server$/, replacement: file('./src/stubs/react-dom-server.ts') }],
  },
  build: {
    outDir: 'lib',
    emptyOutDir: true,
    target: 'es2020',
    // Readable: the app's bundler minifies. process.env.NODE_ENV (in the bundled prop-types that
    // react-shadow uses) is left for the app's bundler to replace, as for any package.
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    lib: { entry: 'src/index.ts', formats: ['es'], fileName: () => 'index.js' },
    rolldownOptions: {
      external,
      // Chunks named for what they are: a text table (de-de-plans), a screens/ folder (checkout, order,
      // aftersale), and the modules the entry shares with them (rolldown would name those after
      // their first module).
      output: {
        chunkFileNames: (chunk) => {
          if (!chunk.isDynamicEntry) return 'chunks/shared-[hash].js';
          const screen = /\/src\/screens\/([a-z]+)\/index\.tsx?$/.exec(chunk.facadeModuleId ?? '');
          if (screen) return `chunks/${screen[1]}.js`;
          const table = /\/src\/i18n\/([a-z-]+)\/([a-z]+)\.ts$/.exec(chunk.facadeModuleId ?? '');
          return table ? `chunks/${table[1]}-${table[2]}.js` : 'chunks/[name].js';
        },
      },
    },
  },
});
