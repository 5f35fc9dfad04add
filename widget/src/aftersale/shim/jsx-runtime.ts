// Build-time stand-in for 'react/jsx-runtime' in dist/aftersale.js (see ./react.ts).
import type * as J from 'react/jsx-runtime';

export let jsx: typeof J.jsx;
export let jsxs: typeof J.jsxs;
export let Fragment: typeof J.Fragment;

export function provideJsx(j: typeof J): void {
  ({ jsx, jsxs, Fragment } = j);
}
