// Minimal document.cookie access. Values are URI-encoded; Secure is added on https pages.

export function readCookie(name: string, doc: Document = document): string | null {
  for (const part of doc.cookie ? doc.cookie.split(';') : []) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

export interface CookieOptions {
  maxAge: number;
  path?: string;
  sameSite?: 'Lax' | 'Strict' | 'None';
}

export function writeCookie(name: string, value: string, opts: CookieOptions, doc: Document = document): void {
  let c = `${name}=${encodeURIComponent(value)}; Max-Age=${opts.maxAge}; Path=${opts.path ?? '/'}; SameSite=${opts.sameSite ?? 'Lax'}`;
  if (doc.location?.protocol === 'https:') c += '; Secure';
  doc.cookie = c;
}

export function deleteCookie(name: string, path = '/', doc: Document = document): void {
  doc.cookie = `${name}=; Max-Age=0; Path=${path}; SameSite=Lax`;
}

export const BROWSER_LANG_COOKIE = 'browserLang';
export const BROWSER_LANG_MAX_AGE = 365 * 24 * 3600;

export function writeBrowserLang(code: string, doc: Document = document): void {
  writeCookie(BROWSER_LANG_COOKIE, code, { maxAge: BROWSER_LANG_MAX_AGE, path: '/', sameSite: 'Lax' }, doc);
}

export function readBrowserLang(doc: Document = document): string | null {
  return readCookie(BROWSER_LANG_COOKIE, doc);
}
