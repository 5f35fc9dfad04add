// The catalog reads (products, gateways, currencies, storefront): data that does not change while
// the page is open, read once per key and shared by every screen and the prefetch.
import type { LocaleCode } from '../i18n/locale';

/** The one name of each catalog answer: a screen reuses what another (or the prefetch) asked for. */
export const catalogKey = {
  products: (group: 'plan' | 'reseller', currency: string, locale: LocaleCode) => `products:${group}:${currency}:${locale}`,
  gateways: (locale: LocaleCode) => `gateways:${locale}`,
  currencies: 'currencies',
  storefront: (locale: LocaleCode) => `storefront:${locale}`,
};

/** Memoised reads of one storefront; a failed read is forgotten, so the next one asks again. */
export class CatalogCache {
  #pending = new Map<string, Promise<unknown>>();
  /** The answers that have arrived, for a first render without a loading state. */
  #settled = new Map<string, unknown>();

  /** `loaded` hears of each read actually sent (not of the ones served from the cache). */
  constructor(private readonly loaded: (key: string, answer: Promise<unknown>) => void = () => undefined) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.#pending.get(key) as Promise<T> | undefined;
    if (hit) return hit;
    const p = load();
    this.#pending.set(key, p);
    this.loaded(key, p);
    p.then(
      (value) => {
        if (this.#pending.get(key) === p) this.#settled.set(key, value);
      },
      () => {
        if (this.#pending.get(key) === p) this.#pending.delete(key);
      },
    );
    return p;
  }

  has(key: string): boolean {
    return this.#pending.has(key);
  }

  /** The answer under `key` when it has already arrived. */
  peek(key: string): { value: unknown } | undefined {
    return this.#settled.has(key) ? { value: this.#settled.get(key) } : undefined;
  }

  /** Serves what is (or will be) under `from` under `to` as well, without a new read. */
  alias(from: string, to: string): void {
    const p = this.#pending.get(from);
    if (!p || this.#pending.has(to)) return;
    const done = this.peek(from);
    void this.get(to, () => p);
    if (done) this.#settled.set(to, done.value);
  }
}
