// The console's texts in the operator's language. `t` is the table in use: a live binding every
// screen reads while it renders, so switching the language is loading a table, assigning it and
// rendering again (App keys the signed-in page on the locale). English ships with the console; the
// other languages are each their own chunk, fetched when chosen. The seven locales are the
// checkout's (widget/src/i18n/locale.ts): the console's English is one table, en-us and en-gb
// differ from it only in their Intl formats (dates, numbers).
import { bcp47, LOCALES, matchBrowserLanguage, normalizeLocale, type LocaleCode } from '../../src/i18n/locale';
import { texts as en, type Messages } from './i18n/en';

export type { Messages, LocaleCode };
export { LOCALES, normalizeLocale };

/** Every locale names its table: a locale left out is a `tsc` error. */
const TABLES: Record<LocaleCode, () => Promise<Messages>> = {
  en: () => Promise.resolve(en),
  'en-us': () => Promise.resolve(en),
  'en-gb': () => Promise.resolve(en),
  'de-de': () => import('./i18n/de-de').then((m) => m.texts),
  'es-es': () => import('./i18n/es-es').then((m) => m.texts),
  'nl-nl': () => import('./i18n/nl-nl').then((m) => m.texts),
  'pt-pt': () => import('./i18n/pt-pt').then((m) => m.texts),
};

/** Each language by its own name, as the checkout's switcher shows them (spec §3), for the menu. */
export const LOCALE_NAMES: Record<LocaleCode, string> = {
  en: 'English',
  'en-us': 'English - US',
  'en-gb': 'English - UK',
  'de-de': 'Deutsch',
  'es-es': 'Español',
  'nl-nl': 'Nederlands',
  'pt-pt': 'Português',
};

/** t is the table in use. */
export let t: Messages = en;
/** locale is the code of the table in use; its BCP 47 tag (`tag()`) formats dates, numbers and money. */
export let locale: LocaleCode = 'en';

export const tag = (): string => bcp47(locale);

/** tableOf loads a locale's table without switching to it (tests compare the tables). */
export const tableOf = (code: LocaleCode): Promise<Messages> => TABLES[code]();

/** switchLocale loads code's table and makes it the one in use; the page's lang follows. */
export async function switchLocale(code: LocaleCode): Promise<void> {
  const table = await TABLES[code]();
  t = table;
  locale = code;
  if (typeof document !== 'undefined') document.documentElement.lang = bcp47(code);
}

/** The operator's choice, kept in this browser (the console's own origin). */
export const STORAGE_KEY = 'streamcart-console-locale';

/** preferredLocale is the language the operator chose here, else the browser's closest, else English. */
export function preferredLocale(): LocaleCode {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage refused (a privacy setting): the browser's language decides.
  }
  const chosen = normalizeLocale(stored);
  if (chosen) return chosen;
  for (const lang of typeof navigator === 'undefined' ? [] : navigator.languages) {
    const match = matchBrowserLanguage(lang);
    if (match) return match;
  }
  return 'en';
}

/** rememberLocale keeps the operator's choice for the next visit. */
export function rememberLocale(code: LocaleCode): void {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Not kept: the choice lasts this page's life.
  }
}
