// The addresses the widget hands out for the way back: a payment provider's return to the waiting
// page, a renewal's return to its /renew page, a sign-in link's to an after-sale page. Memory
// routing brings the buyer back to this very page with a few sc_* parameters (read by
// core/navigation.ts); history routing to the widget's own path. Only the screens after the plan
// page hand them out, so this loads with them.
import type { Place } from './navigation';
import { formatLocation } from './router';

/** The widget's own parameters on the host page in memory routing. */
const PAGE_PARAMS = ['auto_redirect', 'sc_order', 'sc_upsell', 'sc_view', 'signin', 'sc_invoice', 'sc_t', 'sc_return'];

/** This page without the widget's own parameters, ending in "?" or "&" for more. */
export function pageUrl(href: string = location.href): string {
  const u = new URL(href);
  for (const k of PAGE_PARAMS) u.searchParams.delete(k);
  u.hash = '';
  return `${u.toString()}${u.search ? '&' : '?'}`;
}

/**
 * The URL the payment provider sends the buyer back to. `{orderId}` is filled in by the API;
 * `upsell` names the service an extra-connection order is for.
 */
export function returnUrl(at: Place, waiting: 'waiting' | 'resellers/waiting', upsell?: string, href?: string): string {
  const extra = upsell ? `&${new URLSearchParams(at.routing === 'history' ? { upsell } : { sc_upsell: upsell })}` : '';
  if (at.routing === 'history') return onThisOrigin(formatLocation(at.base, at.prefix, waiting, {}), href) + '?order={orderId}' + extra;
  return `${pageUrl(href)}sc_order={orderId}${extra}`;
}

/**
 * A path of history routing on this page's origin: the buyer comes back to the origin the session
 * lives on (a local shop answers on localhost and 127.0.0.1 alike; a path would be made absolute
 * on the shop's one configured address).
 */
function onThisOrigin(path: string, href: string = location.href): string {
  return new URL(href).origin + path;
}

/** Where a renewal invoice's payment page sends the buyer back: its /renew page, marked as a return. */
export function renewReturnUrl(at: Place, invoice: string, t: string, href?: string): string {
  if (at.routing === 'history') return onThisOrigin(formatLocation(at.base, at.prefix, 'renew', { invoice, t, return: '1' }), href);
  return `${pageUrl(href)}${new URLSearchParams({ sc_invoice: invoice, sc_t: t, sc_return: '1' })}`;
}

/** The address of an after-sale page (a sign-in link's return URL; the API adds ?signin=). */
export function viewUrl(at: Place, view: 'services' | 'upsell', href?: string): string {
  if (at.routing === 'history') {
    return view === 'upsell' ? formatLocation(at.base, at.prefix, 'upsell') : formatLocation(at.base, at.prefix, '', { view: 'services' });
  }
  return `${pageUrl(href)}sc_view=${view}`;
}

/** The services view as a payment's way back (a renewal paid from there): on this page's origin, as returnUrl. */
export function viewReturnUrl(at: Place, href?: string): string {
  return at.routing === 'history' ? onThisOrigin(viewUrl(at, 'services'), href) : viewUrl(at, 'services', href);
}
