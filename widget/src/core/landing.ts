// Landing query parameters (spec §2), read once when the widget starts.

export interface Landing {
  promocode: string | null;
  email: string | null;
  pid: number | null;
  autoRedirect: boolean;
  /** Total connections asked for (see the extra-connections decision in flow/options.ts). */
  connections: number | null;
  proxyProtection: boolean;
  affiliateId: number | null;
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);

function positiveInt(s: string | null): number | null {
  if (s === null || !/^\d+$/.test(s.trim())) return null;
  const n = Number(s.trim());
  return n > 0 ? n : null;
}

export function readLanding(search: string): Landing {
  const q = new URLSearchParams(search);
  const extra = q.get('extraconnect');
  // extraconnect=<n> asks for n connections; a bare flag (true/yes/on) for one extra connection.
  let connections: number | null = positiveInt(extra);
  if (connections === null && extra !== null && TRUE.has(extra.toLowerCase())) connections = 2;
  return {
    promocode: q.get('promocode')?.trim().toUpperCase() || null,
    email: q.get('email')?.trim() || null,
    pid: positiveInt(q.get('pid')),
    autoRedirect: (q.get('auto_redirect') ?? '').toLowerCase() === 'true',
    connections,
    proxyProtection: TRUE.has((q.get('proxyprotect') ?? '').toLowerCase()),
    affiliateId: positiveInt(q.get('aff_id')),
  };
}

/**
 * Spec §4 automatic order: email, pid and auto_redirect=true on the index page, unless the visit is
 * a sign-in link (which proves who the visitor is; the email parameter must not replace that).
 */
export function automaticOrderDue(landing: Landing, route: { name: string; query: Record<string, string> }): boolean {
  return !!(landing.email && landing.pid && landing.autoRedirect) && route.name === '' && !route.query.signin;
}
