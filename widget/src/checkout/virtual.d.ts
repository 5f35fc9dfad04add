// The kit of scripts/checkout-split.ts: the first script's modules, by path, for dist/checkout.js.
declare module 'virtual:streamcart-checkout-kit' {
  const kit: import('./remote').Kit;
  export default kit;
}
