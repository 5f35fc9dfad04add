// What dist/checkout.js gives the first script: the checkout's screens, the landing actions, the
// schemas of the answers after the plan cards (api/later.ts),
// the whole English tables (the first script has the plan page's: i18n/english.lazy.ts) and the CSS
// rules the first script left out.
export * from './parts';
export * as schemas from '../api/schemas.later';
export * as english from '../i18n/english';
export { default as css } from '../styles/widget.css?inline';
