// Loads dist/checkout.js (next to the bundle) once, hands it this bundle's React and modules, and
// completes the widget's CSS with its rules. A failed load is tried again on the next call.
import kit from 'virtual:streamcart-checkout-kit';
import { completeCss } from '../element/styles';
import { SCRIPT_BASE } from '../state/scriptBase';
import type { Checkout } from './entry';

let loading: Promise<Checkout> | null = null;
let loaded: Checkout | null = null;
const listeners = new Set<() => void>();

/** The chunk's exports once it is there (for a render without a loading state), else null. */
export function checkoutLoaded(): Checkout | null {
  return loaded;
}

export function subscribeCheckout(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function loadCheckout(): Promise<Checkout> {
  loading ??= import(/* @vite-ignore */ new URL('checkout.js', SCRIPT_BASE).href)
    .then((m: { install?: (k: typeof kit) => Promise<Checkout> }) => {
      if (!m.install) throw new Error('checkout.js is not the Streamcart checkout module');
      return m.install(kit);
    })
    .then((chunk) => {
      completeCss(chunk.css);
      loaded = chunk;
      for (const fn of listeners) fn();
      return chunk;
    })
    .catch((e: unknown) => {
      loading = null;
      throw e;
    });
  return loading;
}
