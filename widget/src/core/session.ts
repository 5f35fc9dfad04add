// The buyer's session as the widget's cookie holds it (what a token says about itself is read in
// core/signin.ts). The server decides every call; a token it refuses sends the visitor to sign in
// again.
import type { Persisted } from './persisted';

/** A session the API issued is in the cookie and not signed out of. */
export function signedIn(p: Persisted): boolean {
  return p.auth.loggedIn && !!p.token;
}
