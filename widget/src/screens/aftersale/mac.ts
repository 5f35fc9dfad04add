// The MAC address a buyer types for a device, checked before it is sent.

/** Mirrors the server's rule: six hex pairs separated by ':' or '-'; stored upper-case with ':'. */
export function normalizeMac(raw: string): string | null {
  const s = raw.trim();
  if (!/^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/.test(s)) return null;
  return s.replace(/-/g, ':').toUpperCase();
}
