import { waitFor } from '@testing-library/dom';
import { describe, expect, it } from 'vitest';
import { installApi } from '../test/api/vitest';
import { mountIndex } from '../test/mount';
import { BROWSER_LANG_MAX_AGE, readCookie, writeBrowserLang, writeCookie } from './cookie';
import { readLanding } from './landing';
import {
  CHECKOUT_MAX_AGE,
  clearedForSuccess,
  emptyPersisted,
  loadPersisted,
  orderStarted,
  savePersisted,
  signedOut,
  type Persisted,
} from './persisted';
import { formatLocation, parseLocation } from './router';

/** A document stand-in that records what is written to document.cookie. */
function recorder(protocol = 'https:') {
  const writes: string[] = [];
  const doc = {
    location: { protocol },
    get cookie() {
      return '';
    },
    set cookie(v: string) {
      writes.push(v);
    },
  } as unknown as Document;
  return { doc, writes };
}

const full = (): Persisted => ({
  auth: { loggedIn: true, user: { userid: 'usr_7m3q9kx2v8t4r6w1n5p0hcj2ab' } },
  user: { email: 'buyer@example.com' },
  order: { orderid: 'o-1', invoiceid: 'i-1', serviceid: ['s-1'], fraud: false },
  waiting: { lastDate: '2030-01-01T00:00:00.000Z', duration: 4000 },
  products: { price: { amount: 1299, currency: 'EUR' }, totalPrice: { amount: 1599, currency: 'EUR' }, notFound: false },
  payment: { gateway: 'sandbox', url: 'https://pay.example/1', deadline: '2030-01-02T00:00:00Z' },
  productDetails: { serviceid: 's-1', name: 'Premium', status: 'Active', username: 'sc1', serverhostname: 'http://tv.example' },
  token: 'tok',
});

describe('checkout cookie', () => {
  it('holds exactly the spec §3 fields plus the token, for 30 days on path /', () => {
    const { doc, writes } = recorder();
    savePersisted(full(), doc);
    const [cookie] = writes;
    expect(cookie).toMatch(/^checkout=/);
    expect(cookie).toContain(`Max-Age=${CHECKOUT_MAX_AGE}`);
    expect(CHECKOUT_MAX_AGE).toBe(2_592_000);
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('Secure');
    const value = JSON.parse(decodeURIComponent(cookie!.slice('checkout='.length, cookie!.indexOf(';'))));
    expect(Object.keys(value).sort()).toEqual(['auth', 'order', 'payment', 'productDetails', 'products', 'token', 'user', 'waiting']);
    expect(Object.keys(value.auth).sort()).toEqual(['loggedIn', 'user']);
    expect(Object.keys(value.auth.user)).toEqual(['userid']);
    expect(Object.keys(value.user)).toEqual(['email']);
    expect(Object.keys(value.products).sort()).toEqual(['notFound', 'price', 'totalPrice']);
  });

  it('round-trips through document.cookie and ignores junk', () => {
    savePersisted(full());
    expect(loadPersisted()).toEqual(full());
    document.cookie = 'checkout=%7Bnot-json; Path=/';
    expect(loadPersisted()).toEqual(emptyPersisted());
    document.cookie = `checkout=${encodeURIComponent(JSON.stringify({ auth: { loggedIn: 'yes' } }))}; Path=/`;
    expect(loadPersisted()).toEqual(emptyPersisted());
  });

  it('sign-out clears auth, user, last waiting date, client product, payment, order and token', () => {
    const out = signedOut(full());
    expect(out.auth).toEqual({ loggedIn: false, user: { userid: null } });
    expect(out.user).toEqual({ email: '' });
    expect(out.waiting.lastDate).toBeNull();
    expect(out.productDetails).toBeNull();
    expect(out.payment).toEqual({ gateway: '', url: '', deadline: '' });
    expect(out.order).toEqual({ orderid: '', invoiceid: '', serviceid: [], fraud: false });
    expect(out.token).toBe('');
    // Not listed by spec §4: kept.
    expect(out.products).toEqual(full().products);
  });

  it('starting an order clears the service id and client product; success clears order and invoice ids only', () => {
    const started = orderStarted(full());
    expect(started.order.serviceid).toEqual([]);
    expect(started.productDetails).toBeNull();
    expect(started.order.orderid).toBe('o-1');
    const done = clearedForSuccess(full());
    expect(done.order).toEqual({ orderid: '', invoiceid: '', serviceid: ['s-1'], fraud: false });
    expect(done.productDetails).toEqual(full().productDetails);
  });
});

describe('browserLang cookie', () => {
  it('lasts 365 days, SameSite=Lax, path /', () => {
    const { doc, writes } = recorder('http:');
    writeBrowserLang('de-de', doc);
    expect(writes[0]).toBe(`browserLang=de-de; Max-Age=${BROWSER_LANG_MAX_AGE}; Path=/; SameSite=Lax`);
    expect(BROWSER_LANG_MAX_AGE).toBe(365 * 24 * 3600);
  });

  it('reads cookies by exact name', () => {
    writeCookie('browserLangX', 'no', { maxAge: 10 });
    writeCookie('browserLang', 'nl-nl', { maxAge: 10 });
    expect(readCookie('browserLang')).toBe('nl-nl');
  });
});

describe('sign-out through the element', () => {
  it('calls DELETE /session with the token, clears the cookie fields and emits session-changed', async () => {
    const api = installApi();
    savePersisted(full());
    const { el, of } = await mountIndex();
    await waitFor(() => expect(of('ready')).toEqual([{ locale: 'en-us', currency: 'EUR', signedIn: true, email: 'buyer@example.com' }]));
    await el.signOut();
    const del = api.callsTo('session.delete')[0]!;
    expect(del.headers.get('authorization')).toBe('Bearer tok');
    expect(of('session-changed')).toEqual([{ signedIn: false }]);
    const after = loadPersisted();
    expect(after).toEqual({ ...signedOut(full()), products: after.products });
  });
});

describe('landing parameters', () => {
  it('reads promocode, email, pid, auto_redirect, extraconnect, proxyprotect and aff_id', () => {
    expect(readLanding('?promocode=save10&email=a%40b.co&pid=2&auto_redirect=true&extraconnect=3&proxyprotect=1&aff_id=42')).toEqual({
      promocode: 'SAVE10',
      email: 'a@b.co',
      pid: 2,
      autoRedirect: true,
      connections: 3,
      proxyProtection: true,
      affiliateId: 42,
    });
    expect(readLanding('?extraconnect=true&pid=x&auto_redirect=1')).toMatchObject({ connections: 2, pid: null, autoRedirect: false });
    expect(readLanding('')).toMatchObject({ promocode: null, email: null, connections: null, proxyProtection: false });
  });
});

describe('history routes', () => {
  it('parses base + optional locale prefix + route', () => {
    expect(parseLocation('/checkout/', '', '/checkout/')).toEqual({ route: { name: '', query: {} }, prefix: null });
    expect(parseLocation('/checkout', '', '/checkout/')).toEqual({ route: { name: '', query: {} }, prefix: null });
    expect(parseLocation('/checkout/de-de/waiting', '?order=7', '/checkout/')).toEqual({
      route: { name: 'waiting', query: { order: '7' } },
      prefix: 'de-de',
    });
    expect(parseLocation('/checkout/resellers/success', '', '/checkout/').route.name).toBe('resellers/success');
    // A pay link (issue 13), with and without a locale prefix.
    expect(parseLocation('/checkout/renew', '?invoice=inv_1&t=tok', '/checkout/')).toEqual({
      route: { name: 'renew', query: { invoice: 'inv_1', t: 'tok' } },
      prefix: null,
    });
    expect(parseLocation('/checkout/pt-pt/renew', '?invoice=inv_1&t=tok', '/checkout/')).toEqual({
      route: { name: 'renew', query: { invoice: 'inv_1', t: 'tok' } },
      prefix: 'pt-pt',
    });
    expect(parseLocation('/checkout/en-gb/', '', '/checkout/').prefix).toBe('en-gb');
    expect(parseLocation('/checkout/nope', '', '/checkout/').route.name).toBe('notFound');
    expect(parseLocation('/checkout/fr-fr/waiting', '', '/checkout/').route.name).toBe('notFound');
  });

  it('formats URLs keeping the prefix', () => {
    expect(formatLocation('/checkout/', 'nl-nl', 'success', { order: 'o 1' })).toBe('/checkout/nl-nl/success?order=o+1');
    expect(formatLocation('/checkout', null, '')).toBe('/checkout/');
  });
});
