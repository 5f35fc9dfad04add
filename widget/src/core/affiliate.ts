// The affiliate a sale is credited to (spec §4): the landing's aff_id, remembered in a cookie.
import { readCookie, writeCookie } from './cookie';
import type { Landing } from './landing';

export const AFFILIATE_COOKIE = 'aff_id';
const AFFILIATE_MAX_AGE = 7_776_000; // 90 days

/** The affiliate to credit: the landing aff_id, else the remembered one (digits, as a string). */
export function affiliateId(landing: Landing): string | null {
  if (landing.affiliateId) return String(landing.affiliateId);
  const stored = readCookie(AFFILIATE_COOKIE) ?? '';
  return /^[1-9][0-9]{0,17}$/.test(stored) ? stored : null;
}

/**
 * Records the landing's affiliate click, then remembers the affiliate; resolves once done (or at
 * once when not needed). Spec §4: acts only when aff_id is present and differs from the stored
 * cookie; a failed call is not retried on every page (spec §8).
 */
export function rememberAffiliate(landing: Landing, recordClick: (id: string, referer: string) => Promise<unknown>): Promise<void> {
  const id = landing.affiliateId;
  if (!id || readCookie(AFFILIATE_COOKIE) === String(id)) return Promise.resolve();
  const referer = typeof document !== 'undefined' ? document.referrer : '';
  return recordClick(String(id), referer)
    .catch(() => undefined)
    .then(() => writeCookie(AFFILIATE_COOKIE, String(id), { maxAge: AFFILIATE_MAX_AGE, path: '/', sameSite: 'Lax' }));
}
