// Actions a landing URL asks for once the widget is up (spec §4): the automatic order, or the
// auto-login of the visitor an email parameter names.
import { isValidEmail } from '../flow/EmailField';
import { autoOrder, ensureSession } from '../flow/order';
import type { Controller } from '../state/controller';

export function runLanding(c: Controller): void {
  const { email, pid, autoRedirect } = c.landing;
  const s = c.getState();
  const p = s.persisted;
  // A sign-in link proves who the visitor is; the email parameter must not replace that session.
  if (s.route.query.signin) return;
  if (email && pid && autoRedirect && s.route.name === '') {
    void autoOrder(c);
  } else if (email && isValidEmail(email) && !(p.auth.loggedIn && p.token && p.user.email.toLowerCase() === email.toLowerCase())) {
    // Spec §4 auto-login: an email in the URL identifies the visitor unless already signed in as them.
    ensureSession(c, email).catch(() => undefined);
  }
}
