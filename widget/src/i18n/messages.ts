// One typed table per locale; `Messages` comes from en, so a missing key is a type error.
import { deDE } from './de-de';
import { en, type Messages } from './en';
import { enGB } from './en-gb';
import { enUS } from './en-us';
import { esES } from './es-es';
import type { LocaleCode } from './locale';
import { nlNL } from './nl-nl';
import { ptPT } from './pt-pt';

export const MESSAGES: Record<LocaleCode, Messages> = {
  en,
  'en-us': enUS,
  'en-gb': enGB,
  'de-de': deDE,
  'es-es': esES,
  'nl-nl': nlNL,
  'pt-pt': ptPT,
};

export function messagesFor(locale: LocaleCode): Messages {
  return MESSAGES[locale];
}

export type { Messages };
