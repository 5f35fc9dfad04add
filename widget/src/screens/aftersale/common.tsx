// Pieces every after-sale screen uses: the API, the session's proof, sign-in (link or password).
import { useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { tokenScope } from '../../core/signin';
import { afterSaleApi } from './api';
import { isApiError } from '../../api/client';
import { catalogKey } from '../../core/catalog';
import { EmailField, isValidEmail } from '../../ui/EmailField';
import { Centered } from '../../ui/Views';
import { useCheckout, useController, useI18n } from '../../ui/context';
import { useAfterSaleTexts, useErrorText } from '../../ui/texts';
import { useStepFocus } from '../../ui/focus';
import { Icon } from '../../ui/icons';
import { startSession } from '../../core/signin';
import { viewUrl } from '../../core/returns';

export function useApi() {
  const c = useController();
  const client = useCheckout(() => c.client);
  const { locale } = useI18n();
  return useMemo(() => afterSaleApi(client, locale), [client, locale]);
}

/** Signed in with a password or a link (the scope the token carries); the server has the last word. */
export function useProven(): boolean {
  return useCheckout((s) => s.persisted.auth.loggedIn && tokenScope(s.persisted.token) === 'proven');
}

/** Error text: this module's names first, then the main table's, then the server's message. */
export function useAfterSaleError() {
  const { a, t } = useAfterSaleTexts();
  const main = useErrorText(t.errors);
  return (e: unknown): string => {
    if (isApiError(e)) {
      const own = (a.errors as Record<string, string>)[e.code];
      if (own) return own;
    }
    return main(e);
  };
}

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

/** The gateway list and the chosen one (the default until the buyer picks). */
export function useGateways() {
  const c = useController();
  const { locale } = useAfterSaleTexts();
  const [list, setList] = useState<{ module: string; displayName: string }[]>([]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [fallback, setFallback] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    c.cached(catalogKey.gateways(locale), () => c.client.gateways(locale)).then(
      (g) => {
        if (!live) return;
        setList(g.gateways);
        setFallback(g.default || g.gateways[0]?.module || null);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [c, locale]);
  const gateway = chosen && list.some((g) => g.module === chosen) ? chosen : fallback;
  return { list, gateway, choose: setChosen };
}

export function GatewayChoice({
  list,
  gateway,
  choose,
  title,
}: {
  list: { module: string; displayName: string }[];
  gateway: string | null;
  choose: (m: string) => void;
  title: string;
}) {
  if (!list.length) return null;
  return (
    <section className="sc-card" aria-labelledby="sc-as-gateway-title">
      <h3 className="sc-card-title" id="sc-as-gateway-title">
        {title}
      </h3>
      <div className="sc-gateways" role="radiogroup" aria-labelledby="sc-as-gateway-title">
        {list.map((g) => (
          <label
            key={g.module}
            className={`sc-gateway${g.module === gateway ? ' is-selected' : ''}`}
            data-testid="gateway-option"
            data-module={g.module}
          >
            <input type="radio" name="sc-as-gateway" value={g.module} checked={g.module === gateway} onChange={() => choose(g.module)} />
            <span>{g.displayName}</span>
          </label>
        ))}
      </div>
    </section>
  );
}
