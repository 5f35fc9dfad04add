import { describe, expect, it } from 'vitest';
import { homeHref, readRoute, servicesHref, type Place } from './navigation';
import { pageUrl, renewReturnUrl, returnUrl, viewUrl } from './returns';

const page = 'https://shop.example/buy?utm=x&sc_order=7&signin=abc#top';
const memory: Place = { routing: 'memory', base: '/', prefix: null };
const history: Place = { routing: 'history', base: '/checkout/', prefix: 'de-de' };

describe('memory routing', () => {
  const at = (search: string) => readRoute('memory', '/', { pathname: '/buy', search });

  it('reads the way back from a payment page, a sign-in link, an after-sale view and a pay link', () => {
    expect(at('')).toEqual({ route: { name: '', query: {} }, prefix: null });
    expect(at('?sc_order=7&sc_upsell=s1').route).toEqual({ name: 'waiting', query: { order: '7', upsell: 's1' } });
    expect(at('?signin=tok').route).toEqual({ name: '', query: { view: 'services', signin: 'tok' } });
    expect(at('?sc_view=upsell').route).toEqual({ name: 'upsell', query: {} });
    expect(at('?sc_view=resellers&signin=t').route).toEqual({ name: 'resellers', query: { signin: 't' } });
    expect(at('?sc_invoice=inv_1&sc_t=tok&sc_return=1').route).toEqual({
      name: 'renew',
      query: { invoice: 'inv_1', t: 'tok', return: '1' },
    });
  });

  it('hands out this page without the widget’s own parameters', () => {
    expect(pageUrl(page)).toBe('https://shop.example/buy?utm=x&');
    expect(pageUrl('https://shop.example/buy?signin=a')).toBe('https://shop.example/buy?');
    expect(returnUrl(memory, 'waiting', 's1', page)).toBe('https://shop.example/buy?utm=x&sc_order={orderId}&sc_upsell=s1');
    expect(renewReturnUrl(memory, 'inv_1', 'tok', page)).toBe('https://shop.example/buy?utm=x&sc_invoice=inv_1&sc_t=tok&sc_return=1');
    expect(viewUrl(memory, 'services', page)).toBe('https://shop.example/buy?utm=x&sc_view=services');
    expect(homeHref(memory)).toBe('#');
    expect(servicesHref(memory)).toBe('#');
  });
});

describe('history routing', () => {
  it('hands out addresses under the base and the locale prefix', () => {
    // On this page's origin: a local shop answers on localhost and 127.0.0.1, the session on one of them.
    expect(returnUrl(history, 'resellers/waiting', 's1')).toBe(
      `${location.origin}/checkout/de-de/resellers/waiting?order={orderId}&upsell=s1`,
    );
    expect(returnUrl(history, 'waiting', undefined, 'http://127.0.0.1:8080/checkout/')).toBe(
      'http://127.0.0.1:8080/checkout/de-de/waiting?order={orderId}',
    );
    expect(returnUrl(history, 'waiting')).toBe(`${location.origin}/checkout/de-de/waiting?order={orderId}`);
    expect(renewReturnUrl(history, 'inv_1', 'tok')).toBe(`${location.origin}/checkout/de-de/renew?invoice=inv_1&t=tok&return=1`);
    expect(viewUrl(history, 'upsell')).toBe('/checkout/de-de/upsell');
    expect(servicesHref(history)).toBe('/checkout/de-de/?view=services');
    expect(homeHref({ ...history, prefix: null })).toBe('/checkout/');
  });
});
