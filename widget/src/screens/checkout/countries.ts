// The ISO 3166-1 alpha-2 codes a buyer picks a billing country from (api/country's list, which the
// server checks against), named in the buyer's language by the browser (Intl.DisplayNames): no
// table of names ships. Part of the checkout chunk only.
import { bcp47, type LocaleCode } from '../../i18n/locale';

const CODES =
  'ADAEAFAGAIALAMAOAQARASATAUAWAXAZBABBBDBEBFBGBHBIBJBLBMBNBOBQBRBSBTBVBWBYBZCACCCDCFCGCHCICKCLCMCNCOCRCUCVCWCXCYCZ' +
  'DEDJDKDMDODZECEEEGEHERESETFIFJFKFMFOFRGAGBGDGEGFGGGHGIGLGMGNGPGQGRGSGTGUGWGYHKHMHNHRHTHUIDIEILIMINIOIQIRISIT' +
  'JEJMJOJPKEKGKHKIKMKNKPKRKWKYKZLALBLCLILKLRLSLTLULVLYMAMCMDMEMFMGMHMKMLMMMNMOMPMQMRMSMTMUMVMWMXMYMZ' +
  'NANCNENFNGNINLNONPNRNUNZOMPAPEPFPGPHPKPLPMPNPRPSPTPWPYQARERORSRURWSASBSCSDSESGSHSISJSKSLSMSNSOSRSSSTSVSXSYSZ' +
  'TCTDTFTGTHTJTKTLTMTNTOTRTTTVTWTZUAUGUMUSUYUZVAVCVEVGVIVNVUWFWSYEYTZAZMZW';

/** Every assigned code. */
export const COUNTRY_CODES: readonly string[] = CODES.match(/../g) ?? [];

/** [code, name] for every country, sorted by name in the locale; a code the browser cannot name stands for itself. */
export function countryNames(locale: LocaleCode): [string, string][] {
  const tag = bcp47(locale);
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([tag], { type: 'region' });
  } catch {
    // An engine without DisplayNames: the codes.
  }
  const out = COUNTRY_CODES.map((c): [string, string] => [c, names?.of(c) ?? c]);
  const collator = new Intl.Collator(tag);
  return out.sort((a, b) => collator.compare(a[1], b[1]));
}
