// Package-build replacement for load.ts (see vite.package.config.ts): each translated table is a
// dynamic import, which the app's bundler turns into its own chunk and resolves relative to this
// module. No URL is built from the script's location, as the script-tag build (load.lazy.ts) must.
import type { Messages } from './en';
import type { LazyLocale } from './load';

const IMPORTS: Record<LazyLocale, () => Promise<Messages>> = {
  'de-de': () => import('./de-de').then((m) => m.deDE),
  'es-es': () => import('./es-es').then((m) => m.esES),
  'nl-nl': () => import('./nl-nl').then((m) => m.nlNL),
  'pt-pt': () => import('./pt-pt').then((m) => m.ptPT),
};

export function loadTable(code: LazyLocale): Promise<Messages> {
  return IMPORTS[code]();
}
