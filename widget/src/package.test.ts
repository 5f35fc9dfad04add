// What the npm package build (vite.package.config.ts) splits with import(), and the exports its
// hand-written types (types/index.d.ts) declare.
import { describe, expect, it } from 'vitest';
import { screens } from './aftersale/screens';
import { loadAfterSale } from './flow/AfterSale';
import { deDE } from './i18n/de-de';
import { esES } from './i18n/es-es';
import { LAZY_LOCALES, loadTable } from './i18n/load';
import { nlNL } from './i18n/nl-nl';
import { ptPT } from './i18n/pt-pt';

describe('package build', () => {
  it('loads every translated table through its own dynamic import', async () => {
    const tables = { 'de-de': deDE, 'es-es': esES, 'nl-nl': nlNL, 'pt-pt': ptPT };
    expect(LAZY_LOCALES.sort()).toEqual(Object.keys(tables).sort());
    for (const code of LAZY_LOCALES) {
      expect(await loadTable(code)).toBe(tables[code]);
    }
  });

  it('loads the after-sale screens as a module of the same build', async () => {
    expect(await loadAfterSale()).toBe(screens);
  });

  it('exports exactly the values types/index.d.ts declares', async () => {
    const index = await import('./index');
    expect(Object.keys(index).sort()).toEqual(['LOCALES', 'StreamcartCheckoutElement', 'TAG', 'define']);
  });
});
