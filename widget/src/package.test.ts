// What the npm package build (vite.package.config.ts) splits with import(), and the exports its
// hand-written types (types/index.d.ts) declare.
import { describe, expect, it } from 'vitest';
import { LOCALES } from './i18n/locale';
import { AREAS, loadTexts, tableOf } from './i18n/messages';

const tables = import.meta.glob<{ texts: unknown }>('./i18n/*/*.ts');

describe('package build', () => {
  it("loads every locale's table of every area through its own dynamic import", async () => {
    for (const locale of LOCALES)
      for (const area of AREAS) {
        await loadTexts(locale, [area]);
        // Regional English has files only for the areas it spells differently.
        const file = tables[`./i18n/${locale}/${area}.ts`] ?? tables[`./i18n/en/${area}.ts`]!;
        expect(tableOf(locale, area), `${locale}/${area}`).toBe((await file()).texts);
      }
  });

  it('loads each screens/ folder after the plan page as a module of its own', async () => {
    expect(Object.keys(await import('./screens/checkout')).sort()).toEqual(['CardTerms', 'CheckoutForm', 'runLanding']);
    expect(Object.keys(await import('./screens/order')).sort()).toEqual(['CreatingOrder', 'Success', 'Waiting']);
    expect(Object.keys(await import('./screens/aftersale')).sort()).toEqual(['AfterSale', 'screens']);
  });

  it('exports exactly the values types/index.d.ts declares', async () => {
    const index = await import('./index');
    expect(Object.keys(index).sort()).toEqual(['LOCALES', 'StreamcartCheckoutElement', 'TAG', 'define']);
  });
});
