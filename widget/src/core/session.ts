// The buyer's session. What a token says about itself: the API's token is
// base64url(JSON claims).signature and its claims are signed, not secret (api/authz): the widget
// reads the scope only to choose what to show. The server decides every call; a token it refuses
// sends the visitor to sign in again.
import type { Persisted } from './persisted';

export type Scope = 'email' | 'proven';

export function tokenScope(token: string): Scope | null {
  const body = token.split('.')[0] ?? '';
  if (!body || body === token) return null;
  try {
    const json = atob(
      body
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(body.length / 4) * 4, '='),
    );
    const claims = JSON.parse(json) as { scp?: unknown };
    return claims.scp === 'proven' || claims.scp === 'email' ? claims.scp : null;
  } catch {
    return null;
  }
}

/** A session the API issued is in the cookie and not signed out of. */
export function signedIn(p: Persisted): boolean {
  return p.auth.loggedIn && !!p.token;
}
