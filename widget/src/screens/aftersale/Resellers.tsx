// /resellers: credit plans (the second pre-selected, spec §9), the existing-reseller choice, a
// password with its confirmation, payment; /resellers/success with the guard of spec §4.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAfterSaleError, useApi } from './hooks';
import { GatewayChoice, useGateways } from './Gateways';
import { isApiError } from '../../api/client';
import { browser } from '../../core/browser';
import { catalogKey } from '../../core/catalog';
import { ensureSession } from '../../core/order';
import { EmailField, isValidEmail } from '../../ui/EmailField';
import { PlanGrid } from '../../ui/PlanGrid';
import { Centered, HomeLink } from '../../ui/Views';
import { useCheckout, useController, useResource } from '../../ui/context';
import { useAfterSaleTexts } from '../../ui/texts';
import { CardTerms, TermsLink } from '../../ui/terms';
import { useStepFocus } from '../../ui/focus';
import { Icon } from '../../ui/icons';
import { startSession } from '../../core/signin';
import { returnUrl } from '../../core/returns';
import { ScreenSkeleton } from './Skeleton';
import type { Money } from '../../api/primitives';

export function ResellersPage() {
  const c = useController();
  const api = useApi();
  const { a, t, locale, money } = useAfterSaleTexts();
  const errText = useAfterSaleError();
  const currency = useCheckout((s) => s.currency);
  const signedIn = useCheckout((s) => s.persisted.auth.loggedIn && !!s.persisted.token);
  const sessionEmail = useCheckout((s) => s.persisted.user.email);
  const key = catalogKey.products('reseller', currency, locale);
  const products = useResource(key, () => c.cached(key, () => c.client.resellerProducts(currency, locale)));
  const me = useResource(signedIn ? `reseller-me:${sessionEmail}` : null, () => api.resellerMe());
  const gateways = useGateways();

  const [pid, setPid] = useState<number | null>(null);
  const [existing, setExisting] = useState<boolean | null>(null);
  const [email, setEmail] = useState(sessionEmail);
  const [forced, setForced] = useState(0);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [confirmTouched, setConfirmTouched] = useState(false);
  const [serverMismatch, setServerMismatch] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [weak, setWeak] = useState(false);
  // 409 price_changed (WHMCS mode: the seller's WHMCS invoices the plan at another total): the
  // fresh total, shown in place of the list's price until the buyer confirms it or picks another plan.
  const [changed, setChanged] = useState<{ pid: number; total: Money } | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const existingRef = useRef<HTMLDivElement>(null);
  const heading = useStepFocus<HTMLHeadingElement>();

  // The plan WHMCS priced anew shows its new total on its card too, not only in the summary.
  const list = (products.data?.products ?? [])
    .slice(0, 3)
    .map((p) => (changed && p.pid === changed.pid ? { ...p, pricing: { ...p.pricing, monthly: changed.total } } : p));
  // Spec §9: the reseller list pre-selects its second product.
  const product = list.find((p) => p.pid === pid) ?? list[1] ?? list[0] ?? null;
  const isReseller = me.status === 'ok' && me.data.isReseller;
  const existingReseller = existing ?? isReseller;
  const newTotal = changed && product && changed.pid === product.pid ? changed.total : null;
  const price = newTotal ?? product?.pricing.monthly ?? null;
  const mismatch = serverMismatch || ((confirmTouched || confirm.length >= password.length) && confirm !== '' && confirm !== password);

  useEffect(() => setServerMismatch(false), [password, confirm]);
  useEffect(() => setWeak(false), [password]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!product || busy) return;
    setError(null);
    const value = email.trim();
    if (!signedIn && (!value || !isValidEmail(value))) {
      setForced((n) => n + 1);
      emailRef.current?.focus();
      return;
    }
    if (password.length < 8) {
      setWeak(true);
      passwordRef.current?.focus();
      return;
    }
    if (confirm !== password) {
      setConfirmTouched(true);
      confirmRef.current?.focus();
      return;
    }
    setBusy(true);
    setChanged(null);
    try {
      // Spec §6: reseller pages need a signed-in user; an email identifies one here.
      if (!signedIn || (value && value.toLowerCase() !== sessionEmail.toLowerCase())) await ensureSession(c, value);
      const o = await api.resellerOrder({
        pid: product.pid,
        gateway: gateways.gateway ?? '',
        existingReseller,
        password,
        confirmPassword: confirm,
        currency,
        returnUrl: returnUrl(c.place(), 'resellers/waiting'),
      });
      // The password is the reseller panel account's and proves nothing: the answer carries the
      // caller's own session, unchanged.
      if (o.session) startSession(c, o.session);
      const serviceIds = o.serviceIds.length ? o.serviceIds : o.serviceId ? [o.serviceId] : [];
      c.update((p) => ({
        ...p,
        order: { orderid: o.orderId, invoiceid: o.invoiceId, serviceid: serviceIds, fraud: o.fraud },
        products: { ...p.products, totalPrice: o.total },
        waiting: { lastDate: null, duration: 0 },
      }));
      c.emit('streamcart:order-created', { orderId: o.orderId, invoiceId: o.invoiceId, status: o.status, total: o.total });
      if (o.paymentUrl && o.status === 'pending' && !o.fraud) {
        const paymentUrl = c.client.resolve(o.paymentUrl);
        const deadline = o.paymentDeadline || new Date(Date.now() + 86_400_000).toISOString();
        c.update((p) => ({ ...p, payment: { gateway: gateways.gateway ?? '', url: paymentUrl, deadline } }));
        c.emit('streamcart:payment-started', { orderId: o.orderId, gateway: gateways.gateway ?? '', paymentUrl });
        browser.assign(paymentUrl);
        return;
      }
      c.navigate('resellers/waiting', { order: o.orderId });
    } catch (err) {
      if (isApiError(err) && err.code === 'malformed') c.fail(err);
      if (isApiError(err) && err.code === 'price_changed' && err.quote) {
        // Nothing was stored or charged: the buyer sees the new total and confirms it by paying again.
        setChanged({ pid: product.pid, total: err.quote.total });
      } else if (isApiError(err) && err.code === 'password_mismatch') {
        setServerMismatch(true);
        confirmRef.current?.focus();
      } else if (isApiError(err) && err.code === 'weak_password') {
        setWeak(true);
        passwordRef.current?.focus();
      } else setError(errText(err));
      setBusy(false);
    }
  }

  if (products.status === 'error' && !products.data) {
    return (
      <Centered icon="alert" tone="error" title={t.errorTitle}>
        <p className="sc-lead" role="alert">
          {errText(products.error)}
        </p>
        <button type="button" className="sc-btn sc-btn-primary" onClick={products.reload}>
          {t.tryAgain}
        </button>
      </Centered>
    );
  }

  const yesNo = (value: boolean, label: string) => (
    <label
      className={`sc-gateway${existingReseller === value ? ' is-selected' : ''}`}
      data-testid={`existing-reseller-${value ? 'yes' : 'no'}`}
    >
      <input type="radio" name="sc-existing-reseller" checked={existingReseller === value} onChange={() => setExisting(value)} />
      <span>{label}</span>
    </label>
  );

  return (
    <div className="sc-page sc-index" data-testid="resellers-view">
      <section className="sc-section" aria-labelledby="sc-resellers-title">
        <header className="sc-section-head">
          <h2 className="sc-title" id="sc-resellers-title" ref={heading} tabIndex={-1}>
            {t.resellerTitle}
          </h2>
          <p className="sc-lead">{t.resellerLead}</p>
        </header>
        {products.status === 'loading' && !products.data ? (
          <div className="sc-grid" aria-busy="true" aria-label={t.loading}>
            {[0, 1, 2].map((i) => (
              <div className="sc-plan sc-skeleton" key={i} />
            ))}
          </div>
        ) : list.length === 0 ? (
          <p className="sc-empty">{t.noPlans}</p>
        ) : (
          <PlanGrid
            products={list}
            selectedPid={product?.pid ?? null}
            cycle="monthly"
            onSelect={setPid}
            onContinue={() => existingRef.current?.querySelector<HTMLInputElement>('input:checked')?.focus()}
            terms={(p, cy) => <CardTerms product={p} cycle={cy} />}
          />
        )}
      </section>

      {product && (
        <form className="sc-checkout" noValidate onSubmit={submit}>
          <div className="sc-form">
            <section className="sc-card" aria-labelledby="sc-existing-title">
              <h3 className="sc-card-title" id="sc-existing-title">
                {a.existingQuestion}
              </h3>
              {isReseller && (
                <p className="sc-note" data-testid="reseller-status">
                  {a.isReseller(me.status === 'ok' ? me.data.balance : 0)}
                </p>
              )}
              <div className="sc-choice" role="radiogroup" aria-labelledby="sc-existing-title" ref={existingRef}>
                {yesNo(true, a.yes)}
                {yesNo(false, a.no)}
              </div>
              {!existingReseller && <p className="sc-hint">{a.newResellerNote}</p>}
            </section>

            <section className="sc-card" aria-labelledby="sc-reseller-account">
              <h3 className="sc-card-title" id="sc-reseller-account">
                {t.yourDetails}
              </h3>
              {signedIn ? (
                <p className="sc-muted">{a.signedInAs(sessionEmail)}</p>
              ) : (
                <EmailField ref={emailRef} value={email} forced={forced} onChange={setEmail} />
              )}
              <div className="sc-field">
                <label className="sc-label" htmlFor="sc-reseller-password">
                  {a.resellerPassword}
                </label>
                {weak && (
                  <p className="sc-field-error" id="sc-reseller-password-error" role="alert" data-testid="reseller-password-error">
                    {a.errors.weak_password}
                  </p>
                )}
                <input
                  ref={passwordRef}
                  id="sc-reseller-password"
                  className="sc-input"
                  type="password"
                  autoComplete="new-password"
                  value={password}
                  data-testid="reseller-password"
                  aria-invalid={weak || undefined}
                  aria-describedby={weak ? 'sc-reseller-password-error sc-reseller-password-hint' : 'sc-reseller-password-hint'}
                  onChange={(e) => setPassword(e.target.value)}
                />
                <p className="sc-hint" id="sc-reseller-password-hint">
                  {a.passwordHint}
                </p>
              </div>
              <div className="sc-field">
                <label className="sc-label" htmlFor="sc-reseller-confirm">
                  {a.confirmPassword}
                </label>
                {mismatch && (
                  <p className="sc-field-error" id="sc-reseller-mismatch" role="alert" data-testid="password-mismatch">
                    {a.errors.password_mismatch}
                  </p>
                )}
                <input
                  ref={confirmRef}
                  id="sc-reseller-confirm"
                  className="sc-input"
                  type="password"
                  autoComplete="new-password"
                  value={confirm}
                  data-testid="reseller-password-confirm"
                  aria-invalid={mismatch ? true : undefined}
                  aria-describedby={mismatch ? 'sc-reseller-mismatch' : undefined}
                  onChange={(e) => setConfirm(e.target.value)}
                  onBlur={() => setConfirmTouched(true)}
                />
              </div>
            </section>

            <GatewayChoice {...gateways} title={t.paymentMethod} />
          </div>

          <aside className="sc-card sc-summary" part="summary" aria-labelledby="sc-reseller-summary">
            <h3 className="sc-card-title" id="sc-reseller-summary">
              {t.summary}
            </h3>
            <div className="sc-line">
              <span>
                {product.name} ({t.cycles.monthly})
              </span>
              <strong data-testid="price-total">{price ? money(price) : '…'}</strong>
            </div>
            <p className="sc-hint">{a.monthlyNote}</p>
            {newTotal && (
              <div className="sc-alert sc-alert-warn" role="alert" data-testid="reseller-price-changed">
                <p>{t.priceChanged(money(newTotal))}</p>
                <button type="submit" className="sc-btn sc-btn-secondary" data-testid="confirm-price" aria-disabled={busy || undefined}>
                  {t.confirmPrice}
                </button>
              </div>
            )}
            {error && (
              <p className="sc-alert" role="alert" data-testid="reseller-error">
                <Icon name="alert" />
                {error}
              </p>
            )}
            <button
              type="submit"
              className="sc-btn sc-btn-primary sc-pay"
              part="pay-button"
              data-testid="pay-button"
              aria-disabled={busy || undefined}
              aria-busy={busy || undefined}
            >
              {busy ? t.processing : a.payNow}
            </button>
            <p className="sc-consent" data-testid="consent-line">
              {t.consentOnce(<TermsLink key="terms" />)}
            </p>
            <p className="sc-secure">{t.secure}</p>
          </aside>
        </form>
      )}
    </div>
  );
}

/**
 * /resellers/success?serviceid=: spec §4 guard — without a service id (signed in or not) or when the
 * reseller product cannot be read or is not Active, back to /resellers.
 */
export function ResellerSuccess() {
  const c = useController();
  const api = useApi();
  const { a, t } = useAfterSaleTexts();
  const serviceId = useCheckout((s) => s.route.query.serviceid ?? '');
  const service = useResource(serviceId ? `reseller-service:${serviceId}` : null, () => api.resellerService(serviceId));
  const bad = !serviceId || service.status === 'error' || (service.status === 'ok' && service.data.status !== 'Active');
  const doneHeading = useStepFocus<HTMLHeadingElement>(service.status === 'ok' && !bad);

  useEffect(() => {
    if (bad) c.navigate('resellers', {}, { replace: true });
  }, [bad, c]);

  if (bad || service.status !== 'ok')
    return <ScreenSkeleton label={a.loadingService} layout="centered" testId="reseller-success-loading" />;
  const s = service.data;
  return (
    <div className="sc-page sc-success" data-testid="reseller-success">
      <header className="sc-success-head">
        <div className="sc-hero-icon is-ok">
          <Icon name="check" />
        </div>
        <h2 className="sc-title" ref={doneHeading} tabIndex={-1}>
          {a.resellerDoneTitle}
        </h2>
        <p className="sc-lead">{a.resellerDoneLead(s.credits)}</p>
      </header>
      <section className="sc-card">
        <dl className="sc-facts">
          <div>
            <dt>{t.plan}</dt>
            <dd>{s.name}</dd>
          </div>
          <div>
            <dt>{t.status}</dt>
            <dd>
              <span className="sc-status sc-status-active" data-testid="reseller-status-badge">
                {(t.statuses as Record<string, string>)[s.status] ?? s.status}
              </span>
            </dd>
          </div>
          {s.account && (
            <div>
              <dt>{a.account}</dt>
              <dd data-testid="reseller-account">{s.account}</dd>
            </div>
          )}
          <div>
            <dt>{a.balance}</dt>
            <dd data-testid="reseller-balance">{t.credits(s.balance)}</dd>
          </div>
        </dl>
      </section>
      <p className="sc-center-row">
        <HomeLink>{t.backHome}</HomeLink>
      </p>
    </div>
  );
}
