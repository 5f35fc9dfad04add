// The English tables (en and its regional variants). The script-tag builds swap in english.lazy.ts,
// whose tables hold the plan page's texts until dist/checkout.js brings these.
export { en } from './en';
export { enGB } from './en-gb';
export { enUS } from './en-us';
