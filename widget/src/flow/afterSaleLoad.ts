// Loads the after-sale screens. This version (a plain import) is used by the tests; the library
// build swaps in afterSaleLoad.lazy.ts, which fetches dist/aftersale.js on first use.
import type { Screens } from '../aftersale/screens';

export function loadAfterSale(): Promise<Screens> {
  return import('../aftersale/screens').then((m) => m.screens);
}
