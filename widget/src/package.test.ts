// The npm package build (vite.package.config.ts): its loader variants and the exports its
// hand-written types (types/index.d.ts) declare.
import { describe, expect, it } from 'vitest';
import { screens } from './aftersale/screens';
import { loadAfterSale } from './flow/afterSaleLoad.package';
import { loadTable } from './i18n/load.package';
import { TABLES, type LazyLocale } from './i18n/load';

describe('package build', () => {
  it('loads every translated table through its own dynamic import', async () => {
    for (const code of Object.keys(TABLES) as LazyLocale[]) {
      expect(await loadTable(code)).toBe(TABLES[code]);
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
