// Loads a translated table: each is its own dynamic import, which the build turns into its own
// chunk (dist/locales/<code>.js, the package's chunks/<code>.js) fetched when that locale is first
// needed. English ships with the entry (messages.ts).
import type { Messages } from './en';

export type LazyLocale = 'de-de' | 'es-es' | 'nl-nl' | 'pt-pt';

const IMPORTS: Record<LazyLocale, () => Promise<Messages>> = {
  'de-de': () => import('./de-de').then((m) => m.deDE),
  'es-es': () => import('./es-es').then((m) => m.esES),
  'nl-nl': () => import('./nl-nl').then((m) => m.nlNL),
  'pt-pt': () => import('./pt-pt').then((m) => m.ptPT),
};

export const LAZY_LOCALES = Object.keys(IMPORTS) as LazyLocale[];

export function loadTable(code: LazyLocale): Promise<Messages> {
  return IMPORTS[code]();
}
