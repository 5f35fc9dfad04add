// Where the widget is and the addresses it hands out. History routing keeps the route in the page's
// path (core/router.ts); memory routing in the widget, with a few sc_* parameters on the way back
// from a payment page, a sign-in link or a renewal's pay link.
import { browser } from './browser';
import { formatLocation, parseLocation, queryOf, type Prefix, type Route, type RouteName } from './router';

/** The routing attributes and the current locale prefix: everything an address depends on. */
export interface Place {
  routing: 'memory' | 'history';
  base: string;
  prefix: Prefix | null;
}

export function readRoute(
  routing: Place['routing'],
  base: string,
  at: { pathname: string; search: string } = location,
): { route: Route; prefix: Prefix | null } {
  if (routing === 'history') return parseLocation(at.pathname, at.search, base);
  // Memory routing: the payment provider sends the buyer back to this page with ?sc_order=<id>.
  const q = queryOf(at.search);
  // A renewal's pay link opened on this page (?sc_invoice=…&sc_t=…), or the payment's return to it.
  if (q.sc_invoice) {
    const query: Record<string, string> = { invoice: q.sc_invoice, t: q.sc_t ?? '' };
    if (q.sc_return) query.return = q.sc_return;
    return { route: { name: 'renew', query }, prefix: null };
  }
  if (q.sc_order)
    return { route: { name: 'waiting', query: { order: q.sc_order, ...(q.sc_upsell ? { upsell: q.sc_upsell } : {}) } }, prefix: null };
  // A sign-in link (?signin=) or a page of the after-sale screens (?sc_view=services|upsell).
  if (q.signin || q.sc_view) {
    const name: RouteName = q.sc_view === 'upsell' ? 'upsell' : q.sc_view === 'resellers' ? 'resellers' : '';
    const query: Record<string, string> = name === '' ? { view: 'services' } : {};
    if (q.signin) query.signin = q.signin;
    return { route: { name, query }, prefix: null };
  }
  return { route: { name: '', query: {} }, prefix: null };
}

/** The plan page's link target: a real href in history routing. */
export function homeHref(at: Place): string {
  return at.routing === 'history' ? formatLocation(at.base, at.prefix, '') : '#';
}

/** The services view's link target: a real href in history routing. */
export function servicesHref(at: Place): string {
  return at.routing === 'history' ? formatLocation(at.base, at.prefix, '', { view: 'services' }) : '#';
}

/** Puts a route in the address bar (history routing) or brings the widget into view (memory). */
export function showRoute(at: Place, host: HTMLElement, name: RouteName, query: Record<string, string>, replace = false): void {
  if (at.routing === 'history') {
    const url = formatLocation(at.base, at.prefix, name, query);
    if (replace) history.replaceState(history.state, '', url);
    else history.pushState(null, '', url);
    browser.scrollToTop();
  } else if (host.getBoundingClientRect().top < 0) {
    host.scrollIntoView?.({ block: 'start' });
  }
}

/** History routing: the same route, parameters and query under another locale prefix ("en" has none). */
export function replacePrefix(base: string, prefix: Prefix | null): void {
  const { route } = parseLocation(location.pathname, location.search, base);
  const path = route.name === 'notFound' ? location.pathname : formatLocation(base, prefix, route.name);
  history.replaceState(history.state, '', `${path}${location.search}${location.hash}`);
}

/** Memory routing: drops a used sign-in token from the address bar. */
export function dropSigninParam(): void {
  const u = new URL(location.href);
  u.searchParams.delete('signin');
  history.replaceState(history.state, '', u.toString());
}
