// react-shadow imports react-dom/server only for its `ssr` prop, which the widget never sets.
// Aliasing the import to this stub keeps the server renderer (which would double the bundle) out.
export function renderToString(): string {
  throw new Error('react-dom/server is not bundled with the Streamcart widget');
}
