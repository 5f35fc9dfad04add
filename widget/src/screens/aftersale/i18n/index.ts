// The after-sale tables are small: all of them ship inside dist/aftersale.js.
import type { LocaleCode } from '../../../i18n/locale';
import { useI18n } from '../../../ui/context';
import { deDE } from './de-de';
import { en, type AfterSaleMessages } from './en';
import { esES } from './es-es';
import { nlNL } from './nl-nl';
import { ptPT } from './pt-pt';

export const TABLES: Record<LocaleCode, AfterSaleMessages> = {
  en,
  'en-us': en,
  'en-gb': en,
  'de-de': deDE,
  'es-es': esES,
  'nl-nl': nlNL,
  'pt-pt': ptPT,
};

/** The main table (t) and this module's table (a) for the shown locale. */
export function useTexts() {
  const i = useI18n();
  return { ...i, a: TABLES[i.locale] };
}
