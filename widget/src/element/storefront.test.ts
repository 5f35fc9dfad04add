// The storefront's settings (GET /storefront): theme, logo, default language and currency.
import { waitFor } from '@testing-library/dom';
import { describe, expect, it } from 'vitest';
import { body } from '../test/api/fixtures';
import { byDefault, installApi, type Api } from '../test/api/vitest';
import { mount, mountIndex } from '../test/mount';
import { safeCssValue, themeCss } from './styles';

const TEAL = {
  ...body<{ name: string }>('catalog.storefront', '200'),
  name: 'Teal TV',
  key: 'pk_test_teal',
  logo: 'https://teal.example/logo.svg',
  theme: { primary: '#0f766e', bg: '#f0fdfa', unknown: 'red' },
  defaultLocale: 'de-de',
  defaultCurrency: 'GBP',
  plans: [1, 2, 3],
};

function tealStore(api: Api): void {
  api.on('catalog.storefront', () => TEAL);
  // The server answers in the storefront's currency when the widget asks for none.
  api.on('catalog.listProducts', (r) =>
    byDefault({ ...r, query: new URLSearchParams({ currency: 'GBP', ...Object.fromEntries(r.query) }) }),
  );
}

describe('themeCss', () => {
  it('makes each known colour the fallback of its --sc-* property', () => {
    expect(themeCss({ primary: '#0f766e', font: "'Inter', sans-serif", shadow: '0 0 1px red' })).toBe(
      ":host{--_p:var(--sc-primary,#0f766e);--_font:var(--sc-font,'Inter', sans-serif)}",
    );
    expect(themeCss({})).toBe('');
    expect(themeCss(undefined)).toBe('');
  });

  it('leaves out values that could leave their declaration', () => {
    for (const bad of ['red;color:blue', 'red}body{', 'url(x', "'open", 'a/*', '\\7d', '<b>', ' ', 'a)(']) {
      expect(safeCssValue(bad), bad).toBe(false);
      expect(themeCss({ primary: bad }), bad).toBe('');
    }
    expect(safeCssValue('rgb(15 118 110 / 90%)')).toBe(true);
    expect(safeCssValue('color-mix(in srgb, teal 50%, white)')).toBe(true);
  });
});

describe('storefront settings', () => {
  it('applies theme, logo, default language and currency when the page sets none', async () => {
    const api = installApi();
    tealStore(api);
    const { el, ui, of } = await mountIndex();
    // jsdom has no adopted sheets: the theme is a <style> of its own in the shadow root.
    await waitFor(() => {
      const css = Array.from(el.shadowRoot!.querySelectorAll('style'))
        .map((s) => s.textContent)
        .join('');
      expect(css).toContain(':host{--_p:var(--sc-primary,#0f766e);--_bg:var(--sc-bg,#f0fdfa)}');
    });
    const logo = el.shadowRoot!.querySelector('img[part="logo"]');
    expect(logo?.getAttribute('src')).toBe(TEAL.logo);
    expect(logo?.getAttribute('alt')).toBe('Teal TV');
    await waitFor(() => expect(el.shadowRoot!.querySelector('.sc-root')?.getAttribute('lang')).toBe('de-DE'));
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toContain('£'));
    // The plans were asked for without a currency (the server's default) and never in EUR.
    const asked = api.callsTo('catalog.listProducts').map((c) => c.query.get('currency'));
    expect(asked[0]).toBeNull();
    expect(asked).not.toContain('EUR');
    expect(of('ready')).toEqual([expect.objectContaining({ currency: 'GBP' })]);
    expect(of('currency-changed')).toEqual([]);
    // The switcher still works from there.
    el.setCurrency('USD');
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toContain('$'));
  });

  it("keeps the buyer's regional variant of the storefront's language", async () => {
    const api = installApi();
    api.on('catalog.storefront', () => ({ ...TEAL, defaultLocale: 'en-gb' }));
    const { el, of } = await mountIndex();
    await waitFor(() => expect(api.callsTo('catalog.storefront')).toHaveLength(1));
    await waitFor(() => expect(el.shadowRoot!.querySelector('img[part="logo"]')).not.toBeNull());
    // jsdom's browser speaks en-US.
    expect(el.shadowRoot!.querySelector('.sc-root')?.getAttribute('lang')).toBe('en-US');
    expect(of('locale-changed')).toEqual([]);
  });

  it("keeps the page's locale and currency attributes and the buyer's language cookie", async () => {
    const api = installApi();
    tealStore(api);
    document.cookie = 'browserLang=es-es; Path=/';
    const { el, ui } = await mountIndex({ currency: 'USD' });
    await waitFor(() => expect(el.shadowRoot!.querySelector('img[part="logo"]')).not.toBeNull());
    expect(el.shadowRoot!.querySelector('.sc-root')?.getAttribute('lang')).toBe('es-ES');
    expect(ui().getByTestId('price-total').textContent).toContain('$');
    expect(api.callsTo('catalog.listProducts').every((c) => c.query.get('currency') === 'USD')).toBe(true);
  });

  it("remembers the buyer's currency through a page reload when the page sets none; an attribute still wins", async () => {
    const api = installApi();
    tealStore(api);
    const first = await mountIndex({ store: 'pk_test_teal' });
    await waitFor(() => expect(first.ui().getByTestId('price-total').textContent).toContain('£'));
    first.el.setCurrency('usd');
    await waitFor(() => expect(first.ui().getByTestId('price-total').textContent).toContain('$'));
    // Off to the payment page: the host page reloads, and a new element starts.
    first.el.remove();
    await Promise.resolve();
    const before = api.callsTo('catalog.listProducts').length;
    const back = await mountIndex({ store: 'pk_test_teal' });
    await waitFor(() => expect(back.el.shadowRoot!.querySelector('img[part="logo"]')).not.toBeNull());
    await waitFor(() => expect(back.ui().getByTestId('price-total').textContent).toContain('$'));
    // Priced in the buyer's currency from the start, not in the storefront's default one first.
    const asked = api
      .callsTo('catalog.listProducts')
      .slice(before)
      .map((c) => c.query.get('currency'));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((c) => c === 'USD')).toBe(true);
    expect(back.of('ready')).toEqual([expect.objectContaining({ currency: 'USD' })]);
    expect(back.of('currency-changed')).toEqual([]);
    back.el.remove();
    await Promise.resolve();

    // Another storefront key has its own (none yet): its default currency.
    const other = await mountIndex({ store: 'pk_test_other' });
    await waitFor(() => expect(other.ui().getByTestId('price-total').textContent).toContain('£'));
    other.el.remove();
    await Promise.resolve();
    // The page's currency attribute wins over the remembered choice.
    const page = await mountIndex({ store: 'pk_test_teal', currency: 'EUR' });
    await waitFor(() => expect(page.el.shadowRoot!.querySelector('img[part="logo"]')).not.toBeNull());
    // The form's texts and quote arrive after the cards: wait for the price, as the other mounts do.
    await waitFor(() => expect(page.ui().getByTestId('price-total').textContent).toContain('€'));
  });

  it('takes the theme and logo of another storefront when the store attribute changes', async () => {
    const api = installApi();
    api.on('catalog.storefront', (c) =>
      c.headers.get('streamcart-store') === 'pk_b'
        ? { ...body<object>('catalog.storefront', '200'), name: 'B', logo: '/b.svg', theme: { primary: 'rebeccapurple' } }
        : TEAL,
    );
    const { el } = await mountIndex({ store: 'pk_a', api: 'https://shop.example/checkout/api' });
    await waitFor(() => expect(el.shadowRoot!.querySelector('img[part="logo"]')?.getAttribute('alt')).toBe('Teal TV'));
    el.setAttribute('store', 'pk_b');
    // A path is on the shop's origin, not the host page's.
    await waitFor(() => expect(el.shadowRoot!.querySelector('img[part="logo"]')?.getAttribute('src')).toBe('https://shop.example/b.svg'));
    const css = Array.from(el.shadowRoot!.querySelectorAll('style'))
      .map((s) => s.textContent)
      .join('');
    expect(css).toContain('--_p:var(--sc-primary,rebeccapurple)');
    expect(css).not.toContain('#0f766e');
  });

  it('shows no logo and keeps the defaults when the storefront has none (an older server)', async () => {
    const api = installApi();
    // Off the contract on purpose: a server from before these fields existed.
    api.on('catalog.storefront', () => ({ name: 'Old' }), { offContract: true });
    const { el, ui } = await mountIndex();
    await waitFor(() => expect(api.callsTo('catalog.storefront')).toHaveLength(1));
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toContain('€'));
    expect(el.shadowRoot!.querySelector('img[part="logo"]')).toBeNull();
    expect(Array.from(el.shadowRoot!.querySelectorAll('style')).some((s) => s.textContent?.startsWith(':host{--_p'))).toBe(false);
  });
});

describe('what a host page needs, announced instead of asked for twice', () => {
  function listen(type: string): unknown[] {
    const seen: unknown[] = [];
    document.addEventListener(`streamcart:${type}`, (e) => seen.push((e as CustomEvent).detail));
    return seen;
  }

  it('announces the storefront links and the currencies it read, one request each', async () => {
    const api = installApi();
    api.on('catalog.storefront', () => ({ ...TEAL, supportUrl: 'https://help.teal.example/', dashboardUrl: 'https://my.teal.example/' }));
    const storefronts = listen('storefront-loaded');
    const currencies = listen('currencies-loaded');
    await mountIndex();
    await waitFor(() =>
      expect(storefronts).toEqual([{ supportUrl: 'https://help.teal.example/', dashboardUrl: 'https://my.teal.example/' }]),
    );
    // On the plan page the currencies are read once the cards are painted, for the form below them.
    await waitFor(() => expect(currencies).toHaveLength(1));
    expect(currencies[0]).toEqual(
      expect.objectContaining({
        default: expect.any(String),
        currencies: expect.arrayContaining([expect.objectContaining({ code: 'EUR' })]),
      }),
    );
    expect(api.callsTo('catalog.storefront')).toHaveLength(1);
    expect(api.callsTo('catalog.listCurrencies')).toHaveLength(1);
  });

  it('reads the currencies at once, once, off the plan page', async () => {
    const api = installApi();
    const currencies = listen('currencies-loaded');
    history.replaceState(null, '', '/checkout/success');
    try {
      const { el } = mount({ routing: 'history', base: '/checkout/' });
      await waitFor(() => expect(currencies).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(api.callsTo('catalog.listCurrencies')).toHaveLength(1);
      el.remove();
    } finally {
      history.replaceState(null, '', '/');
    }
  });
});
