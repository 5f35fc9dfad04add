// The panel's texts (i18n/<locale>/devices.ts), each locale its own small chunk, loaded with the
// panel; a table that cannot be fetched falls back to English.
import type { DevicesTexts } from '../../i18n/en/devices';
import type { LocaleCode } from '../../i18n/locale';

type Table = () => Promise<{ texts: DevicesTexts }>;
const en: Table = () => import('../../i18n/en/devices');
const TABLES: Record<LocaleCode, Table> = {
  en,
  'en-us': () => import('../../i18n/en-us/devices'),
  'en-gb': () => import('../../i18n/en-gb/devices'),
  'de-de': () => import('../../i18n/de-de/devices'),
  'es-es': () => import('../../i18n/es-es/devices'),
  'nl-nl': () => import('../../i18n/nl-nl/devices'),
  'pt-pt': () => import('../../i18n/pt-pt/devices'),
};

export function loadDevicesTexts(locale: LocaleCode): Promise<DevicesTexts> {
  return TABLES[locale]()
    .catch(() => en())
    .then((m) => m.texts);
}
export type { DevicesTexts };
