// Loads a translated table. This static version (every table in the bundle) is used by the tests;
// the library build swaps in load.lazy.ts (see vite.config.ts), which fetches one table on demand.
import { deDE } from './de-de';
import type { Messages } from './en';
import { esES } from './es-es';
import { nlNL } from './nl-nl';
import { ptPT } from './pt-pt';

export type LazyLocale = 'de-de' | 'es-es' | 'nl-nl' | 'pt-pt';

export const TABLES: Record<LazyLocale, Messages> = { 'de-de': deDE, 'es-es': esES, 'nl-nl': nlNL, 'pt-pt': ptPT };

export function loadTable(code: LazyLocale): Promise<Messages> {
  return Promise.resolve(TABLES[code]);
}
