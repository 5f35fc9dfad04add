// What the npm package build (vite.package.config.ts) splits with import(), and the exports its
// hand-written types (types/index.d.ts) declare.
import { describe, expect, it } from 'vitest';
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

  it('loads each screens/ folder after the plan page as a module of its own', async () => {
    expect(Object.keys(await import('./screens/checkout')).sort()).toEqual(['CheckoutForm', 'runLanding']);
    expect(Object.keys(await import('./screens/order')).sort()).toEqual(['CreatingOrder', 'Success', 'Waiting']);
    expect(Object.keys(await import('./screens/aftersale')).sort()).toEqual(['AfterSale', 'screens']);
  });

  it('exports exactly the values types/index.d.ts declares', async () => {
    const index = await import('./index');
    expect(Object.keys(index).sort()).toEqual(['LOCALES', 'StreamcartCheckoutElement', 'TAG', 'define']);
  });
});
