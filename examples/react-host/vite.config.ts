import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// `npm run dev`: fills the page's placeholders the way server.mjs does for the built site.
const devPlaceholders: Plugin = {
  name: 'react-host-dev-placeholders',
  apply: 'serve',
  transformIndexHtml: (html) =>
    html
      .replaceAll('{{API_ORIGIN}}', process.env.STREAMCART_API_ORIGIN ?? 'http://127.0.0.1:8080')
      .replaceAll('{{STORE_KEY}}', process.env.STORE_KEY ?? 'pk_test_react'),
};

export default defineConfig({
  plugins: [react(), devPlaceholders],
  // The origin pk_test_react allows (api/catalog/demo.yaml).
  server: { host: '127.0.0.1', port: 8082, strictPort: true },
  build: { target: 'es2022' },
});
