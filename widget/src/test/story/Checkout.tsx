// Renders the real <streamcart-checkout> (the widget's own source: same element, same shadow root,
// same CSS as the bundle) after putting the page in the story's state: the API answers from
// fixtures, the widget's cookies hold the story's session, and the page URL carries the story's
// landing or return parameters (what a buyer's browser would have when reaching that screen).
import { createElement, useEffect, useState } from 'react';
import '../../index';
import { emptyPersisted, savePersisted, type Persisted } from '../../core/persisted';
import { browser } from '../../core/browser';
import { installMockApi, type ApiScenario } from '../api/mock';
import { body } from '../api/fixtures';

/** Query parameters the widget reads from the page (spec §2 landing parameters, return and view links). */
const WIDGET_PARAMS = [
  'promocode',
  'email',
  'pid',
  'auto_redirect',
  'extraconnect',
  'proxyprotect',
  'aff_id',
  'serviceid',
  'sc_order',
  'sc_upsell',
  'sc_view',
  'signin',
  'sc_invoice',
  'sc_t',
  'sc_return',
];
const WIDGET_COOKIES = ['checkout', 'browserLang', 'aff_id'];

export interface CheckoutStory {
  /** Answers per contract operation ("order.get": "200.fraud"); the rest use the defaults. */
  api?: ApiScenario;
  /** Query parameters of the page when the widget starts. */
  url?: Record<string, string>;
  /** A signed-in visitor: identified by email only, or proven by a password or an emailed link; null: none. */
  session?: 'email' | 'proven' | null;
  /** Element attributes; locale and currency here win over the toolbar. */
  attrs?: Record<string, string>;
}

/** Payment links the widget tried to leave for (the stories stay on the page). */
export const paymentRedirects: string[] = [];
browser.assign = (url: string) => {
  paymentRedirects.push(url);
};

function prepare({ api = {}, url = {}, session }: CheckoutStory): () => void {
  for (const name of WIDGET_COOKIES) document.cookie = `${name}=; Max-Age=0; Path=/`;
  if (session) {
    const s = body<{ token: string; userId: string; email: string }>('session.create', session === 'proven' ? '201.proven' : '201');
    const p: Persisted = {
      ...emptyPersisted(),
      auth: { loggedIn: true, user: { userid: s.userId } },
      user: { email: s.email },
      token: s.token,
    };
    savePersisted(p);
  }
  const setQuery = (extra: Record<string, string>) => {
    const q = new URLSearchParams(location.search);
    for (const k of WIDGET_PARAMS) q.delete(k);
    for (const [k, v] of Object.entries(extra)) q.set(k, v);
    history.replaceState(history.state, '', `${location.pathname}?${q}${location.hash}`);
  };
  setQuery(url);
  const mock = installMockApi(api);
  paymentRedirects.length = 0;
  return () => {
    mock.uninstall();
    setQuery({});
    for (const name of WIDGET_COOKIES) document.cookie = `${name}=; Max-Age=0; Path=/`;
  };
}

export function Checkout(props: CheckoutStory & { locale: string; currency: string }) {
  // Set up once per mount, before the element exists: the widget reads the URL and cookies when it
  // starts. A toolbar change re-renders with new attributes and keeps the running widget.
  const [cleanup] = useState(() => prepare(props));
  useEffect(() => cleanup, [cleanup]);
  const attrs = { locale: props.locale, currency: props.currency, ...props.attrs };
  return createElement('streamcart-checkout', attrs);
}
