// Package-build replacement for afterSaleLoad.ts (see vite.package.config.ts): the after-sale screens
// are an ordinary dynamic-import chunk of the package. The app's bundler resolves it relative to this
// module and shares React and every other module with the main chunk, so no hand-over kit (as
// afterSaleLoad.lazy.ts gives dist/aftersale.js) is needed.
import type { Screens } from '../aftersale/screens';

export function loadAfterSale(): Promise<Screens> {
  return import('../aftersale/screens').then((m) => m.screens);
}
