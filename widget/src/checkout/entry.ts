// Entry of dist/checkout.js. The first script imports it after the plan cards paint and calls
// install() with its own React and modules; only then do the chunk's modules run (the build keeps
// ./checkout as a lazily evaluated part of this one file), so they can use them at load time.
import { provide, type Kit } from './remote';

export type Checkout = typeof import('./checkout');

export function install(kit: Kit): Promise<Checkout> {
  provide(kit);
  return import('./checkout');
}
