// Build-time stand-in for 'react' in dist/aftersale.js: the screens use the page's one React
// (hooks only work with the renderer's own copy), handed over by provideReact().
import type * as R from 'react';

export let useState: typeof R.useState;
export let useEffect: typeof R.useEffect;
export let useLayoutEffect: typeof R.useLayoutEffect;
export let useRef: typeof R.useRef;
export let useMemo: typeof R.useMemo;
export let useCallback: typeof R.useCallback;
export let useId: typeof R.useId;

export function provideReact(r: typeof R): void {
  ({ useState, useEffect, useLayoutEffect, useRef, useMemo, useCallback, useId } = r);
}
