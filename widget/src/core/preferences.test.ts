import { afterEach, describe, expect, it } from 'vitest';
import type { Storefront } from '../api/schemas';
import { body } from '../test/api/fixtures';
import { Preferences, type Stage } from './preferences';
import type { Config, State } from './state';

const CONFIG: Config = {
  api: '/checkout/api',
  store: null,
  locale: null,
  currency: null,
  plan: null,
  promocode: null,
  routing: 'memory',
  base: '/',
};

/** A stage with the state's locale and currency, recording patches, events and aliased prices. */
function stage(start: { locale: State['locale']; currency: string }) {
  let state = { ...start } as unknown as State;
  const events: string[] = [];
  const priced: string[] = [];
  const s: Stage = {
    state: () => state,
    set: (patch) => (state = { ...state, ...patch }),
    emit: (name, detail) => events.push(`${name} ${JSON.stringify(detail)}`),
    config: () => CONFIG,
    pricedIn: (code) => priced.push(code),
  };
  return { s, events, priced, now: () => state };
}

const storefront = (over: Partial<Storefront>): Storefront => ({ ...body<Storefront>('catalog.storefront', '200'), ...over });
const tick = () => new Promise((r) => queueMicrotask(() => r(undefined)));

afterEach(() => {
  sessionStorage.clear();
  document.cookie = 'browserLang=; Max-Age=0; Path=/';
});

describe('language and currency preferences', () => {
  it.each([
    // follows: who has not spoken yet; the storefront's defaults apply only there.
    { name: 'nobody chose', follows: { locale: true, currency: true }, locale: 'de-de', currency: 'USD' },
    { name: 'the page chose the language', follows: { locale: false, currency: true }, locale: 'en', currency: 'USD' },
    { name: 'the buyer chose the currency', follows: { locale: true, currency: false }, locale: 'de-de', currency: 'GBP' },
  ])('the storefront’s defaults apply where $name', async ({ follows, locale, currency }) => {
    const { s, now } = stage({ locale: 'en', currency: 'GBP' });
    const p = new Preferences(s, follows);
    s.set({ storefront: null, ...p.storefrontLocale(storefront({ defaultLocale: 'de-de', defaultCurrency: 'usd' })) });
    p.storefrontCurrency(storefront({ defaultLocale: 'de-de', defaultCurrency: 'usd' }));
    await tick();
    expect(now().locale).toBe(locale);
    expect(now().currency).toBe(currency);
  });

  it('settles the plan page’s currency once, with the cache told its products are priced in it', () => {
    const { s, now, priced } = stage({ locale: 'en', currency: '' });
    const p = new Preferences(s, { locale: true, currency: true });
    p.fill('usd');
    expect(now().currency).toBe('');
    p.fill('USD');
    p.fill('EUR');
    expect(now().currency).toBe('USD');
    expect(priced).toEqual(['USD']);
    // Once filled, the storefront's later answer does not replace it.
    p.storefrontCurrency(storefront({ defaultCurrency: 'GBP' }));
    expect(now().currency).toBe('USD');
  });

  it('takes the buyer’s language and currency, announcing each change once, and remembers them', async () => {
    const { s, now, events } = stage({ locale: 'en', currency: 'EUR' });
    const p = new Preferences(s, { locale: true, currency: true });
    p.setLocale('nl-NL');
    p.setLocale('nl-nl');
    p.setCurrency('usd');
    await tick();
    expect(now()).toMatchObject({ locale: 'nl-nl', currency: 'USD' });
    expect(events).toEqual(['streamcart:locale-changed {"locale":"nl-nl"}', 'streamcart:currency-changed {"currency":"USD"}']);
    expect(document.cookie).toContain('browserLang=nl-nl');
    expect(sessionStorage.getItem('streamcart:currency:')).toBe('USD');
    // Chosen: the storefront no longer decides either.
    s.set(p.storefrontLocale(storefront({ defaultLocale: 'de-de' })));
    p.storefrontCurrency(storefront({ defaultCurrency: 'GBP' }));
    expect(now()).toMatchObject({ locale: 'nl-nl', currency: 'USD' });
  });

  it('refuses what is not a language or a currency with an error event and no change', async () => {
    const { s, now, events } = stage({ locale: 'en', currency: 'EUR' });
    const p = new Preferences(s, { locale: true, currency: true });
    p.setLocale('klingon');
    p.setCurrency('EURO');
    await tick();
    expect(now()).toMatchObject({ locale: 'en', currency: 'EUR' });
    expect(events).toEqual([
      'streamcart:error {"name":"unknown_locale","message":"Unknown locale klingon"}',
      'streamcart:error {"name":"unknown_currency","message":"Unknown currency EURO"}',
    ]);
  });
});
