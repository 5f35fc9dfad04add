// Signing a buyer in: the session the API issued (an email entered at checkout, a password, a
// sign-in link, a reseller's order) goes into the widget's cookie and the host page is told. Only
// the screens after the plan page sign anyone in, so this loads with them.
import type { Controller } from './controller';
import type { Persisted } from './persisted';

/**
 * What a token says about itself: the API's token is base64url(JSON claims).signature and its claims
 * are signed, not secret (api/authz). The widget reads the scope only to choose what to show.
 */
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

export interface IssuedSession {
  token: string;
  userId: string;
  email: string;
}

/** The cookie's fields after the API issued a session for `email`. */
export function withSession(p: Persisted, session: IssuedSession): Persisted {
  return { ...p, auth: { loggedIn: true, user: { userid: session.userId } }, user: { email: session.email }, token: session.token };
}

export function startSession(c: Controller, session: IssuedSession): void {
  c.update((p) => withSession(p, session));
  c.emit('streamcart:session-changed', { signedIn: true, email: session.email });
}
