// History-mode URLs: base + optional locale prefix ("de-de/") + route, e.g. /checkout/de-de/waiting?order=7.
import { PREFIXES } from '../i18n/locale';

export const ROUTES = [
  '',
  'creatingOrder',
  'resellers',
  'success',
  'upsell',
  'waiting',
  'resellers/success',
  'resellers/waiting',
  // A renewal invoice paid from its pay link (?invoice=…&t=…), without signing in.
  'renew',
] as const;
export type RouteName = (typeof ROUTES)[number] | 'notFound';

export interface Route {
  name: RouteName;
  query: Record<string, string>;
}

export type Prefix = (typeof PREFIXES)[number];

export function isPrefix(s: string | null | undefined): s is Prefix {
  return !!s && (PREFIXES as readonly string[]).includes(s);
}

export function normalizeBase(base: string | null | undefined): string {
  let b = (base ?? '/').trim() || '/';
  if (!b.startsWith('/')) b = `/${b}`;
  if (!b.endsWith('/')) b = `${b}/`;
  return b;
}

export function queryOf(search: string): Record<string, string> {
  const q: Record<string, string> = {};
  new URLSearchParams(search).forEach((value, key) => {
    q[key] = value;
  });
  return q;
}

export function parseLocation(pathname: string, search: string, base: string): { route: Route; prefix: Prefix | null } {
  const b = normalizeBase(base);
  const query = queryOf(search);
  let rest: string;
  if (pathname === b.slice(0, -1)) rest = '';
  else if (pathname.startsWith(b)) rest = pathname.slice(b.length);
  else return { route: { name: 'notFound', query }, prefix: null };
  const segments = rest.split('/').filter(Boolean);
  let prefix: Prefix | null = null;
  if (isPrefix(segments[0])) prefix = segments.shift() as Prefix;
  const path = segments.join('/');
  const name = (ROUTES as readonly string[]).includes(path) ? (path as RouteName) : 'notFound';
  return { route: { name, query }, prefix };
}

export function formatLocation(base: string, prefix: Prefix | null, name: RouteName, query: Record<string, string> = {}): string {
  const route = name === 'notFound' ? '' : name;
  const qs = new URLSearchParams(query).toString();
  return `${normalizeBase(base)}${prefix ? `${prefix}/` : ''}${route}${qs ? `?${qs}` : ''}`;
}
