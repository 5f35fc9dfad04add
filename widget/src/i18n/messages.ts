// One typed table per locale; `Messages` comes from en, so a missing key is a type error.
// English (and its regional variants) ship in the bundle; the other tables load on first use.
import { en, type Messages } from './en';
import { enGB } from './en-gb';
import { enUS } from './en-us';
import { loadTable, type LazyLocale } from './load';
import type { LocaleCode } from './locale';

const loaded: Partial<Record<LocaleCode, Messages>> = { en, 'en-us': enUS, 'en-gb': enGB };
const pending = new Map<LocaleCode, Promise<void>>();

export function isLoaded(locale: LocaleCode): boolean {
  return loaded[locale] !== undefined;
}

/** The table for a locale; English until a translated table has loaded (or when it failed to). */
export function messagesFor(locale: LocaleCode): Messages {
  return loaded[locale] ?? en;
}

/** Loads a locale's table once; a table that cannot be fetched falls back to English. */
export function loadMessages(locale: LocaleCode): Promise<void> {
  if (isLoaded(locale)) return Promise.resolve();
  let p = pending.get(locale);
  if (!p) {
    p = loadTable(locale as LazyLocale).then(
      (table) => {
        loaded[locale] = table;
      },
      () => {
        loaded[locale] = en;
      },
    );
    pending.set(locale, p);
  }
  return p;
}

export type { Messages };
