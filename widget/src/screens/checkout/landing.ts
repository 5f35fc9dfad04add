// Actions a landing URL asks for once the widget is up (spec §4): the automatic order, or the
// auto-login of the visitor an email parameter names.
import { isValidEmail } from '../../ui/EmailField';
import { autoOrder, ensureSession } from '../../core/order';
import type { Controller } from '../../core/controller';

export function runLanding(c: Controller): void {
  const { email } = c.landing;
  const s = c.getState();
  const p = s.persisted;
  if (c.autoOrderDue) {
    void autoOrder(c);
  } else if (
    email &&
    !s.route.query.signin &&
    isValidEmail(email) &&
    !(p.auth.loggedIn && p.token && p.user.email.toLowerCase() === email.toLowerCase())
  ) {
    // Spec §4 auto-login: an email in the URL identifies the visitor unless already signed in as
    // them; a sign-in link proves who the visitor is and keeps that session.
    ensureSession(c, email).catch(() => undefined);
  }
}
