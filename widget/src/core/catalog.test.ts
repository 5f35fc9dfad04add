import { describe, expect, it } from 'vitest';
import { CatalogCache, catalogKey } from './catalog';

describe('catalog keys', () => {
  it('name an answer by what it depends on', () => {
    expect(catalogKey.products('plan', 'USD', 'de-de')).toBe('products:plan:USD:de-de');
    expect(catalogKey.products('reseller', '', 'en-us')).toBe('products:reseller::en-us');
    expect(catalogKey.gateways('nl-nl')).toBe('gateways:nl-nl');
    expect(catalogKey.storefront('en-us')).toBe('storefront:en-us');
    expect(catalogKey.currencies).toBe('currencies');
  });
});

describe('CatalogCache', () => {
  it('reads a key once and peeks at it once it has arrived', async () => {
    const sent: string[] = [];
    const cache = new CatalogCache((key) => sent.push(key));
    let reads = 0;
    const load = () => Promise.resolve(++reads);
    const first = cache.get('currencies', load);
    expect(cache.get('currencies', load)).toBe(first);
    expect(cache.peek('currencies')).toBeUndefined();
    expect(await first).toBe(1);
    expect(cache.peek('currencies')).toEqual({ value: 1 });
    expect(sent).toEqual(['currencies']);
  });

  it('forgets a failed read, so the next one asks again', async () => {
    const cache = new CatalogCache();
    await expect(cache.get('gateways:en-us', () => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(cache.has('gateways:en-us')).toBe(false);
    await expect(cache.get('gateways:en-us', () => Promise.resolve('ok'))).resolves.toBe('ok');
  });

  it('serves an answer under a second key without a new read, never over one it has', async () => {
    const cache = new CatalogCache();
    const unpriced = catalogKey.products('plan', '', 'en-us');
    const priced = catalogKey.products('plan', 'USD', 'en-us');
    await cache.get(unpriced, () => Promise.resolve(['plan']));
    cache.alias(unpriced, priced);
    expect(cache.peek(priced)).toEqual({ value: ['plan'] });
    await expect(cache.get(priced, () => Promise.resolve(['other']))).resolves.toEqual(['plan']);
    const eurKey = catalogKey.products('plan', 'EUR', 'en-us');
    const eur = cache.get(eurKey, () => Promise.resolve(['eur']));
    cache.alias(unpriced, eurKey);
    expect(cache.get(eurKey, () => Promise.resolve(['x']))).toBe(eur);
    await expect(eur).resolves.toEqual(['eur']);
    // Nothing under the first key: nothing to serve.
    cache.alias('products:plan::de-de', 'products:plan:USD:de-de');
    expect(cache.has('products:plan:USD:de-de')).toBe(false);
  });
});
