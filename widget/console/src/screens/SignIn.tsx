// Operator sign-in: email, password and the authenticator's current code (POST /admin/session).
import { useState, type FormEvent } from 'react';
import type { Api } from '../api';
import { t } from '../messages';
import type { Session } from '../schemas';
import { ErrorNote, Field } from '../ui/basics';

export function SignIn({ api, onSignedIn }: { api: Api; onSignedIn: (s: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      onSignedIn(await api.session.create({ email: email.trim(), password, otp: otp.trim() }));
    } catch (err) {
      setError(err);
      setOtp('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card narrow" onSubmit={submit} data-testid="signin">
      <Field label={t.emailLabel}>
        {(id) => <input id={id} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <Field label={t.passwordLabel}>
        {(id) => (
          <input
            id={id}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
      </Field>
      <Field label={t.otpLabel} hint={t.otpHint}>
        {(id, hint) => (
          <input
            id={id}
            aria-describedby={hint}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            value={otp}
            onChange={(e) => setOtp(e.target.value)}
          />
        )}
      </Field>
      <ErrorNote error={error} />
      <button type="submit" className="primary" disabled={busy}>
        {t.signInButton}
      </button>
    </form>
  );
}
