// A tiny history router under /checkout/admin/: every screen has its own URL (reloadable, shareable),
// the server answers every path with the app's page, and links are real <a href> elements.
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const BASE = '/checkout/admin/';

const CHANGE = 'console:navigate';

function subscribe(cb: () => void) {
  window.addEventListener('popstate', cb);
  window.addEventListener(CHANGE, cb);
  return () => {
    window.removeEventListener('popstate', cb);
    window.removeEventListener(CHANGE, cb);
  };
}

/** memory, when set, is the console's location kept off the address bar (Storybook's iframe). */
let memory: string | null = null;

/** routeInMemory starts the console at `to` without touching the address bar (stories only). */
export function routeInMemory(to: string): void {
  memory = to;
  window.dispatchEvent(new Event(CHANGE));
}

const snapshot = () => memory ?? location.pathname + location.search;

export interface Route {
  /** The path below BASE without slashes at the ends: "", "orders", "orders/ord_1". */
  path: string;
  parts: string[];
  query: URLSearchParams;
}

export function parseRoute(url: string): Route {
  const u = new URL(url, 'http://x');
  const path = (u.pathname.startsWith(BASE) ? u.pathname.slice(BASE.length) : '').replace(/\/+$/, '');
  return { path, parts: path ? path.split('/').map(decodeURIComponent) : [], query: u.searchParams };
}

export function useRoute(): Route {
  return parseRoute(useSyncExternalStore(subscribe, snapshot));
}

/** href builds a console URL from a path below BASE and query values (empty ones left out). */
export function href(path: string, q: Record<string, string | undefined> = {}): string {
  const p = new URLSearchParams();
  for (const [k, val] of Object.entries(q)) if (val) p.set(k, val);
  const s = p.toString();
  return BASE + path + (s ? `?${s}` : '');
}

export function navigate(to: string, replace = false): void {
  if (memory !== null) memory = to;
  else if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(CHANGE));
}

/** Link is an <a> that navigates in the app on a plain click and behaves as a link otherwise. */
export function Link({ href, onClick: onClickProp, children, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    onClickProp?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <a {...rest} href={href} onClick={onClick}>
      {children}
    </a>
  );
}
