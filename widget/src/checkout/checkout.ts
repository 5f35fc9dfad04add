// What dist/checkout.js gives the first script: the checkout's screens, the landing actions, the
// after-sale screens' shared modules, and the CSS rules the first script left out.
export * from './parts';
export * as afterSaleShared from '../aftersale/shared';
export { default as css } from '../styles/widget.css?inline';
