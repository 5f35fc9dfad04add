// The parts of the checkout after the plan cards: the plan page with its form, the order pages, the
// after-sale routes and the landing actions. App imports them from here; in the script-tag builds
// vite.config.ts swaps in parts.lazy.tsx, whose stand-ins load these from dist/checkout.js (see
// scripts/checkout-split.ts).
export { IndexPage } from '../flow/IndexPage';
export { Waiting } from '../flow/Waiting';
export { Success } from '../flow/Success';
export { CreatingOrder, NotFound } from '../flow/ViewsMore';
export { AfterSale } from '../flow/AfterSale';
export { runLanding } from './landing';
