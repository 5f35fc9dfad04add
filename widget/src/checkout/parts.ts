// The parts of the checkout after the plan cards: the plan page with its form, waiting, success and
// the landing actions. App imports them from here; in the script-tag builds vite.config.ts swaps in
// parts.lazy.tsx, whose stand-ins load these from dist/checkout.js (see scripts/checkout-split.ts).
export { IndexPage } from '../flow/IndexPage';
export { Waiting } from '../flow/Waiting';
export { Success } from '../flow/Success';
export { runLanding } from './landing';
