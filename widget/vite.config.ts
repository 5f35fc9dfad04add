import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const stub = new URL('./src/stubs/react-dom-server.ts', import.meta.url).pathname;

export default defineConfig(({ mode }) => ({
  plugins: [react()],
  // Library mode does not replace process.env.NODE_ENV itself; React would ship its dev build.
  define: mode === 'test' ? {} : { 'process.env.NODE_ENV': '"production"' },
  resolve: {
    alias: mode === 'test' ? [] : [{ find: /^react-dom\/server$/, replacement: stub }],
  },
  build: {
    outDir: 'dist',
    // dist/.gitkeep is tracked: never wipe the folder.
    emptyOutDir: false,
    target: 'es2020',
    minify: 'oxc',
    sourcemap: false,
    lib: {
      entry: 'src/index.ts',
      name: 'Streamcart',
      formats: ['es', 'iife'],
      fileName: (format) => (format === 'es' ? 'streamcart.js' : 'streamcart.iife.js'),
    },
    rolldownOptions: {
      // Vite leaves an ES library unminified by default (whitespace kept); we ship it to browsers as is.
      // charset ascii: a classic <script> without a charset is decoded with the host page's encoding
      // (windows-1252 on a page without <meta charset>); escaped text survives any encoding.
      output: { minify: true, charset: 'ascii' },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // The widget's CSS is part of what is tested (it must land in the shadow root).
    css: { include: [/widget\.css/] },
  },
}));
