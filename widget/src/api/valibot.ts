// The valibot functions the first script bundles anyway, for schemas.later.ts: in dist/checkout.js
// they are taken from the first script (scripts/checkout-split.ts) instead of bundled a second time.
export { array, boolean, nullish, number, object, optional, pipe, string, transform } from 'valibot';
