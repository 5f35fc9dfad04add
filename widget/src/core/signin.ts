// Signing a buyer in: the session the API issued (an email entered at checkout, a password, a
// sign-in link, a reseller's order) goes into the widget's cookie and the host page is told. Only
// the screens after the plan page sign anyone in, so this loads with them.
import type { Controller } from './controller';
import type { Persisted } from './persisted';

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
