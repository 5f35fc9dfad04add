// Loads dist/checkout.js once and completes the widget's CSS with its rules; the widgets on the page
// re-render with its screens. A failed load is tried again on the next call.
import { setLaterSchemasLoader } from '../api/later.lazy';
import { completeCss } from '../element/styles';
import { completeEnglish } from '../i18n/english.lazy';
import type { Controller } from '../state/controller';
import type { Checkout } from './entry';
import { fetchCheckout } from './fetch';

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
  loading ??= fetchCheckout()
    .then((chunk) => {
      completeCss(chunk.css);
      completeEnglish(chunk.english);
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

// The client parses the answers after the plan cards with the chunk's schemas.
setLaterSchemasLoader(() => loadCheckout().then((chunk) => chunk.schemas));

const reported = new WeakMap<Controller, Promise<Checkout>>();

/**
 * Loads the chunk for a widget that needs it. A failure is the widget's generic error view (once
 * per attempt), whose "Try again" renders the screen again, which asks again.
 */
export function needCheckout(c: Controller): void {
  const p = loadCheckout();
  if (loaded || reported.get(c) === p) return;
  reported.set(c, p);
  p.catch((e: unknown) => c.fail({ name: 'network', message: e instanceof Error ? e.message : String(e) }));
}
