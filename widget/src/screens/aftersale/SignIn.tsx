// Signing in to manage: the form (an emailed link or a password), the view while a link is
// redeemed, and the landing of a ?signin= link.
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { startSession } from '../../core/signin';
import { viewUrl } from '../../core/returns';
import { EmailField, isValidEmail } from '../../ui/EmailField';
import { Centered } from '../../ui/Views';
import { useCheckout, useController } from '../../ui/context';
import { useAfterSaleTexts } from '../../ui/texts';
import { useStepFocus } from '../../ui/focus';
import { Icon } from '../../ui/icons';
import { useAfterSaleError, useApi } from './hooks';

const redeemed = new Map<string, Promise<unknown>>();

/**
 * A sign-in link lands with ?signin=<token>: trade it for a proven session (once per token), then
 * drop it from the address. Returns true while redeeming, and the failure if any.
 */
export function useSigninLanding(): { busy: boolean; error: unknown } {
  const c = useController();
  const api = useApi();
  const token = useCheckout((s) => s.route.query.signin ?? '');
  const [state, setState] = useState<{ busy: boolean; error: unknown }>({ busy: !!token, error: null });

  useEffect(() => {
    if (!token) return;
    let live = true;
    setState({ busy: true, error: null });
    let p = redeemed.get(token);
    if (!p) {
      p = api.redeemLink(token).then((session) => startSession(c, session));
      redeemed.set(token, p);
    }
    p.then(
      () => live && setState({ busy: false, error: null }),
      (error: unknown) => live && setState({ busy: false, error }),
    ).finally(() => c.forgetSigninParam());
    return () => {
      live = false;
    };
  }, [token, api, c]);

  return state;
}

export function SigningIn() {
  const { a } = useAfterSaleTexts();
  return <Centered icon="spinner" tone="busy" title={a.signingIn} />;
}

/** Sign-in by an emailed link (always the same answer: no account oracle) or by password. */
export function SignIn({ view, lead, notice }: { view: 'services' | 'upsell'; lead?: string; notice?: string | null }) {
  const c = useController();
  const api = useApi();
  const { a, t } = useAfterSaleTexts();
  const errText = useAfterSaleError();
  const remembered = useCheckout((s) => s.persisted.user.email);
  const [mode, setMode] = useState<'link' | 'password'>('link');
  const [email, setEmail] = useState(remembered);
  const [password, setPassword] = useState('');
  const [forced, setForced] = useState(0);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [passwordMissing, setPasswordMissing] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const tabRefs = useRef<Record<'link' | 'password', HTMLButtonElement | null>>({ link: null, password: null });
  const heading = useStepFocus<HTMLHeadingElement>();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const value = email.trim();
    setError(null);
    if (!value || !isValidEmail(value)) {
      setForced((n) => n + 1);
      emailRef.current?.focus();
      return;
    }
    if (mode === 'password' && !password) {
      setPasswordMissing(true);
      passwordRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      if (mode === 'link') {
        await api.requestLink(value, viewUrl(c.place(), view));
        setSent(true);
      } else {
        const session = await api.signIn(value, password);
        setPassword('');
        startSession(c, session);
      }
    } catch (err) {
      setError(errText(err));
    } finally {
      setBusy(false);
    }
  }

  const choose = (m: 'link' | 'password') => {
    setMode(m);
    setError(null);
    setSent(false);
    setPasswordMissing(false);
  };
  // Tabs pattern: one tab stop; arrows, Home and End move between the two ways and choose.
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const next = e.key === 'ArrowLeft' || e.key === 'Home' ? 'link' : e.key === 'ArrowRight' || e.key === 'End' ? 'password' : null;
    if (!next) return;
    e.preventDefault();
    choose(next);
    tabRefs.current[next]?.focus();
  };
  const tab = (m: 'link' | 'password', label: string) => (
    <button
      ref={(el) => {
        tabRefs.current[m] = el;
      }}
      type="button"
      role="tab"
      id={`sc-signin-tab-${m}`}
      aria-selected={mode === m}
      aria-controls="sc-signin-panel"
      tabIndex={mode === m ? 0 : -1}
      data-testid={`signin-mode-${m}`}
      onClick={() => choose(m)}
      onKeyDown={onTabKey}
    >
      {label}
    </button>
  );

  return (
    <div className="sc-page sc-narrow">
      <header className="sc-section-head">
        <h2 className="sc-title" ref={heading} tabIndex={-1}>
          {a.signInTitle}
        </h2>
        <p className="sc-lead">{lead ?? a.signInLead}</p>
      </header>
      {notice && (
        <p className="sc-alert sc-alert-warn" role="alert">
          <Icon name="alert" />
          {notice}
        </p>
      )}
      <form className="sc-card" data-testid="signin-form" noValidate onSubmit={submit} aria-busy={busy || undefined}>
        <div className="sc-tabs" role="tablist" aria-label={a.signInTitle}>
          {tab('link', a.byLink)}
          {tab('password', a.byPassword)}
        </div>
        <div role="tabpanel" id="sc-signin-panel" aria-labelledby={`sc-signin-tab-${mode}`}>
          <EmailField
            ref={emailRef}
            value={email}
            forced={forced}
            onChange={(v) => {
              setEmail(v);
              setSent(false);
            }}
          />
          {mode === 'password' && (
            <div className="sc-field">
              <label className="sc-label" htmlFor="sc-signin-password">
                {a.password}
              </label>
              {passwordMissing && !password && (
                <p className="sc-field-error" id="sc-signin-password-error" role="alert" data-testid="signin-password-error">
                  {a.passwordRequired}
                </p>
              )}
              <input
                ref={passwordRef}
                id="sc-signin-password"
                className="sc-input"
                type="password"
                autoComplete="current-password"
                value={password}
                data-testid="signin-password"
                aria-invalid={passwordMissing && !password ? true : undefined}
                aria-describedby={passwordMissing && !password ? 'sc-signin-password-error' : undefined}
                onChange={(e) => setPassword(e.target.value)}
              />
            </div>
          )}
          {error && (
            <p className="sc-alert" role="alert" data-testid="signin-error">
              <Icon name="alert" />
              {error}
            </p>
          )}
          {/* Always there, so screen readers hear the confirmation when it appears. */}
          <div role="status">
            {sent && mode === 'link' && (
              <p className="sc-note" data-testid="signin-sent">
                {a.linkSent}
              </p>
            )}
          </div>
          <div className="sc-actions">
            <button
              type="submit"
              className="sc-btn sc-btn-primary"
              aria-disabled={busy || undefined}
              aria-busy={busy || undefined}
              data-testid={mode === 'link' ? 'signin-send' : 'signin-submit'}
            >
              {busy ? t.processing : mode === 'link' ? a.sendLink : a.signIn}
            </button>
          </div>
        </div>
      </form>
    </div>
  );
}
