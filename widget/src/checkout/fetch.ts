// dist/checkout.js, next to the bundle, installed with this bundle's kit (scripts/checkout-split.ts).
import kit from 'virtual:streamcart-checkout-kit';
import { SCRIPT_BASE } from '../state/scriptBase';
import type { Checkout } from './entry';

export function fetchCheckout(): Promise<Checkout> {
  const url = new URL('checkout.js', SCRIPT_BASE).href;
  return import(/* @vite-ignore */ url).then((m: { install?: (k: typeof kit) => Promise<Checkout> }) => {
    if (!m.install) throw new Error(`${url} is not the Streamcart checkout module`);
    return m.install(kit);
  });
}
