// Build-time replacement for load.ts: each translated table is its own small ES module next to the
// bundle (dist/locales/de-de.js …), fetched when that locale is first needed. English ships inline.
import type { Messages } from './en';
import type { LazyLocale } from './load';
import { SCRIPT_BASE } from '../state/scriptBase';

const BASE = SCRIPT_BASE;

const EXPORTS: Record<LazyLocale, string> = { 'de-de': 'deDE', 'es-es': 'esES', 'nl-nl': 'nlNL', 'pt-pt': 'ptPT' };

export function loadTable(code: LazyLocale): Promise<Messages> {
  const url = new URL(`locales/${code}.js`, BASE).href;
  return import(/* @vite-ignore */ url).then((m: Record<string, Messages>) => {
    const table = m[EXPORTS[code]];
    if (!table) throw new Error(`locale module ${url} has no table`);
    return table;
  });
}
