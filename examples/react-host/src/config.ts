// Where the shop is and which storefront key this site uses: server.mjs writes them into the page's
// <meta> tags (so one build runs against any shop). A page served without it (vite preview) gets
// the demo defaults.
function meta(name: string, fallback: string): string {
  const value = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim();
  return value && !value.startsWith('{{') ? value : fallback;
}

const apiOrigin = meta('streamcart-api-origin', 'http://127.0.0.1:8080').replace(/\/$/, '');

export const config = {
  apiOrigin,
  api: `${apiOrigin}/checkout/api`,
  store: meta('streamcart-store', 'pk_test_react'),
};
