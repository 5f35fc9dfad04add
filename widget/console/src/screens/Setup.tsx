// Setting up an operator from its one-time link: a password (at least 12 characters), then the
// authenticator: the otpauth URL as a QR code and as text, the secret to type by hand, and a
// first code that proves it (POST /admin/setup, then /admin/setup/confirm).
import { useState, type FormEvent } from 'react';
import { encode } from 'uqr';
import type { Api } from '../api';
import { t } from '../messages';
import { href, Link } from '../router';
import { ErrorNote, Field } from '../ui';

export const MIN_PASSWORD = 12;

/** Qr draws the QR code of text as an SVG of rectangles (no image, no canvas, nothing fetched). */
export function Qr({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      className="qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width={size * 5}
      height={size * 5}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

export function Setup({ api, token }: { api: Api; token: string }) {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [otp, setOtp] = useState('');
  const [secret, setSecret] = useState<{ totpSecret: string; otpauthUrl: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  // Said as it is: not wrapped as an unknown failure ("Failed (error): …").
  if (!token)
    return (
      <div role="alert" className="note note-error" data-testid="error">
        {t.setupNoToken}
      </div>
    );

  const choose = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setLocal('');
    if (password.length < MIN_PASSWORD) return setLocal(t.passwordTooShort(MIN_PASSWORD));
    if (password !== again) return setLocal(t.passwordsDiffer);
    setBusy(true);
    try {
      setSecret(await api.session.setup({ token, password }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await api.session.confirm({ token, otp: otp.trim() });
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <section className="card narrow" data-testid="setup-done">
        <p role="status" className="note note-ok">
          {t.setupDone}
        </p>
        <p>
          <Link href={href('')}>{t.goToSignIn}</Link>
        </p>
      </section>
    );
  }

  if (!secret) {
    return (
      <form className="card narrow" onSubmit={choose} noValidate data-testid="setup-password">
        <p>{t.setupIntro}</p>
        <Field label={t.newPasswordLabel} hint={t.passwordHint(MIN_PASSWORD)}>
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              type="password"
              autoComplete="new-password"
              required
              minLength={MIN_PASSWORD}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <Field label={t.repeatPasswordLabel}>
          {(id) => (
            <input id={id} type="password" autoComplete="new-password" required value={again} onChange={(e) => setAgain(e.target.value)} />
          )}
        </Field>
        {local && (
          <p role="alert" className="note note-error">
            {local}
          </p>
        )}
        <ErrorNote error={error} />
        <button type="submit" className="primary" disabled={busy}>
          {t.continueButton}
        </button>
      </form>
    );
  }

  return (
    <form className="card narrow" onSubmit={confirm} noValidate data-testid="setup-totp">
      <p>{t.totpIntro}</p>
      <Qr text={secret.otpauthUrl} label={t.qrLabel} />
      <dl className="facts">
        <dt>{t.totpSecretLabel}</dt>
        <dd>
          <code data-testid="totp-secret">{secret.totpSecret}</code>
        </dd>
        <dt>{t.otpauthUrlLabel}</dt>
        <dd>
          <code className="wrap" data-testid="otpauth-url">
            {secret.otpauthUrl}
          </code>
        </dd>
      </dl>
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
        {t.confirmSetupButton}
      </button>
    </form>
  );
}
