// "My services": every service of a proven session, its credentials, playlist, MAC address, the
// panel actions (restart, recreate, terminate after a confirmation) and its renewal (Renewal.tsx).
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { signedIn } from '../../core/session';
import { type Service, downloadPlaylist } from '../../api/orders';
import { normalizeMac } from './mac';
import { useAfterSaleError, useApi, useProven } from './hooks';
import { SignIn, SigningIn, useSigninLanding } from './SignIn';
import { RenewalPanel, useRenewalReturn } from './Renewal';
import { OrdersSection } from './Orders';
import { isApiError } from '../../api/client';
import { Credential } from '../../ui/Credential';
import { Centered, HomeLink } from '../../ui/Views';
import { useCheckout, useController, useResource } from '../../ui/context';
import { useAfterSaleTexts } from '../../ui/texts';
import { refocus, useStepFocus } from '../../ui/focus';
import { Icon } from '../../ui/icons';
import { BusyButton } from '../../ui/BusyButton';
import { Alert, StatusNote } from '../../ui/Notice';
import { viewUrl } from '../../core/returns';
import { DeviceSetup } from '../devices/DeviceSetup';
import { ScreenSkeleton } from './Skeleton';

export function ServicesPage() {
  const landing = useSigninLanding();
  const proven = useProven();
  // A buyer's session (the email they bought with) reads the lines it bought: right after paying,
  // "My services" shows them without signing in; everything else needs a proven session.
  const buying = useCheckout((s) => signedIn(s.persisted));
  const [signIn, setSignIn] = useState(false);
  const errText = useAfterSaleError();
  if (landing.busy) return <SigningIn />;
  if (!proven && (!buying || signIn || landing.error))
    return <SignIn view="services" notice={landing.error ? errText(landing.error) : null} />;
  return <ServiceList proven={proven} onSignIn={() => setSignIn(true)} />;
}

function ServiceList({ proven, onSignIn }: { proven: boolean; onSignIn: () => void }) {
  const c = useController();
  const api = useApi();
  const { a, t } = useAfterSaleTexts();
  const errText = useAfterSaleError();
  const token = useCheckout((s) => s.persisted.token);
  const email = useCheckout((s) => s.persisted.user.email);
  const list = useResource(`services:${token}`, () => api.services());
  const heading = useStepFocus<HTMLHeadingElement>(!!list.data);
  const renewal = useRenewalReturn(list.reload);

  if (list.status === 'error' && isApiError(list.error) && list.error.code === 'unauthorized') {
    return <SignIn view="services" notice={a.sessionExpired} />;
  }
  if (list.status === 'loading' && !list.data) return <ScreenSkeleton label={a.loadingServices} testId="services-loading" />;
  if (list.status === 'error' && !list.data) {
    return (
      <Centered icon="alert" tone="error" title={t.errorTitle}>
        <p className="sc-lead" role="alert">
          {errText(list.error)}
        </p>
        <div className="sc-actions">
          <button type="button" className="sc-btn sc-btn-primary" onClick={list.reload}>
            {t.tryAgain}
          </button>
          <HomeLink className="sc-btn sc-btn-ghost">{t.backHome}</HomeLink>
        </div>
      </Centered>
    );
  }
  const services = list.data?.services ?? [];
  // Nothing bought in this session: signing in is the only way to the services.
  if (!proven && list.data && services.length === 0) return <SignIn view="services" />;
  const canUpsell = proven && services.some((s) => s.status === 'Active' && !s.trial);
  return (
    <div className="sc-page" data-testid="services-view">
      <header className="sc-section-head">
        <h2 className="sc-title" ref={heading} tabIndex={-1}>
          {a.servicesTitle}
        </h2>
        <p className="sc-lead">{a.servicesLead}</p>
        {email && proven && <p className="sc-muted">{a.signedInAs(email)}</p>}
      </header>
      {!proven && (
        <div className="sc-note sc-purchase-only" data-testid="services-purchase-only">
          <p>{a.purchaseOnly}</p>
          <button type="button" className="sc-btn sc-btn-secondary sc-btn-small" data-testid="services-signin" onClick={onSignIn}>
            {a.signInToManage}
          </button>
        </div>
      )}
      <div role="status">
        {renewal && (
          <p className={renewal === 'paid' ? 'sc-note' : 'sc-muted'} data-testid="renewal-return" data-state={renewal}>
            {renewal === 'paid' ? a.renewalPaid : a.renewalConfirming}
          </p>
        )}
      </div>
      {services.length === 0 ? (
        <div className="sc-center">
          <p className="sc-empty" data-testid="services-empty">
            {a.noServices}
          </p>
          <HomeLink>{t.backToPlans}</HomeLink>
        </div>
      ) : (
        <div className="sc-services">
          {services.map((s) => (
            <ServiceCard key={s.serviceId} initial={s} manage={proven} />
          ))}
        </div>
      )}
      {canUpsell && (
        <p className="sc-center-row">
          <a
            className="sc-btn sc-btn-secondary"
            href={viewUrl(c.place(), 'upsell')}
            data-testid="upsell-link"
            onClick={(e) => {
              e.preventDefault();
              c.navigate('upsell');
            }}
          >
            <Icon name="sparkle" />
            {a.addConnections}
          </a>
        </p>
      )}
      <OrdersSection />
    </div>
  );
}

type Action = 'restart' | 'recreate' | 'terminate' | 'mac' | 'playlist';

const SMALL = 'sc-btn sc-btn-ghost sc-btn-small';

function ServiceCard({ initial, manage }: { initial: Service; manage: boolean }) {
  const c = useController();
  const api = useApi();
  const { a, t, date } = useAfterSaleTexts();
  const errText = useAfterSaleError();
  const [s, setService] = useState(initial);
  const [busy, setBusy] = useState<Action | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [mac, setMac] = useState(initial.macAddress);
  const [macError, setMacError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const terminateRef = useRef<HTMLButtonElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const macRef = useRef<HTMLInputElement>(null);
  useEffect(() => setService(initial), [initial]);

  // The terminate question replaces the action buttons: focus goes to its safe answer, back to
  // Terminate when it closes, and to the card's name when the service ended and the buttons went.
  const asked = useRef(false);
  const acted = useRef(false);
  useLayoutEffect(() => {
    if (confirming) keepRef.current?.focus();
    else if (asked.current) refocus(c.host, terminateRef.current ?? headingRef.current);
    asked.current = confirming;
  }, [confirming, c]);
  useLayoutEffect(() => {
    if (busy !== null || !acted.current) return;
    acted.current = false;
    refocus(c.host, terminateRef.current ?? headingRef.current);
  }, [busy, c]);

  const active = s.status === 'Active';
  const status = (t.statuses as Record<string, string>)[s.status] ?? s.status;
  const ready = !!s.username && !!s.password;
  const idBase = `sc-svc-${s.serviceId}`;

  async function run(action: Action, call: () => Promise<Service>, done: (next: Service) => string) {
    acted.current = true;
    setBusy(action);
    setMessage(null);
    setError(null);
    try {
      const next = await call();
      setService(next);
      setMessage(done(next));
      return true;
    } catch (e) {
      if (isApiError(e) && e.code === 'malformed') c.fail(e);
      const text = errText(e);
      if (action === 'mac' && isApiError(e) && e.code === 'invalid_mac') setMacError(text);
      else setError(text);
      return false;
    } finally {
      setBusy(null);
      setConfirming(false);
    }
  }

  function saveMac(e: FormEvent) {
    e.preventDefault();
    // Checked here first with the server's own rule; the server checks again (400 invalid_mac).
    const normal = normalizeMac(mac);
    if (!normal) {
      setMacError(a.errors.invalid_mac);
      macRef.current?.focus();
      return;
    }
    if (busy !== null) return;
    setMacError(null);
    void run(
      'mac',
      () => api.setMac(s.serviceId, mac.trim()),
      (next) => {
        setMac(next.macAddress);
        return a.macSaved(next.macAddress || normal);
      },
    );
  }

  async function download() {
    if (busy !== null) return;
    setBusy('playlist');
    setError(null);
    try {
      await downloadPlaylist(c.client, s, c.host.shadowRoot);
    } catch (e) {
      setError(errText(e));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="sc-card sc-credentials" data-testid="service-card" data-service-id={s.serviceId} aria-labelledby={`${idBase}-name`}>
      <div className="sc-cred-head">
        <h3 className="sc-card-title" id={`${idBase}-name`} ref={headingRef} tabIndex={-1}>
          {s.name}
        </h3>
        <span className={`sc-status sc-status-${s.status.toLowerCase()}`} data-testid="service-status" data-status={s.status}>
          {status}
        </span>
      </div>
      <dl className="sc-facts">
        <div>
          <dt>{t.maxConnections}</dt>
          <dd data-testid="service-connections">{s.maxConnections}</dd>
        </div>
        {s.billingCycle && (
          <div>
            <dt>{t.billing}</dt>
            <dd>{(t.cycles as Record<string, string>)[s.billingCycle] ?? s.billingCycle}</dd>
          </div>
        )}
        {s.nextDueDate && (
          <div>
            <dt>{t.nextDueDate}</dt>
            <dd>{date(s.nextDueDate)}</dd>
          </div>
        )}
        {!s.nextDueDate && s.expiresAt && (
          <div>
            <dt>{a.expires}</dt>
            <dd>{date(s.expiresAt.slice(0, 10))}</dd>
          </div>
        )}
      </dl>

      {manage && <RenewalPanel service={s} onChange={setService} />}

      {ready && s.status !== 'Terminated' && (
        <div className="sc-creds">
          {s.serverHostname && <Credential label={t.server} value={s.serverHostname} testId="credential-server" />}
          <Credential label={t.username} value={s.username} testId="credential-username" />
          <Credential label={t.password} value={s.password} testId="credential-password" />
        </div>
      )}

      {ready && active && (
        <BusyButton
          className="sc-btn sc-btn-secondary sc-download"
          testId="m3u-download"
          busy={busy === 'playlist'}
          blocked={busy !== null}
          onClick={() => void download()}
          busyLabel={
            <>
              <Icon name="spinner" className="sc-spin" />
              {t.downloading}
            </>
          }
        >
          <Icon name="download" />
          {t.downloadM3u}
        </BusyButton>
      )}

      {ready && (active || s.status === 'Overdue') && <DeviceSetup line={s} macHere={manage} embedded />}

      {manage && (active || s.status === 'Suspended') && (
        <form className="sc-field" noValidate onSubmit={saveMac}>
          <label className="sc-label" htmlFor={`${idBase}-mac`}>
            {a.macAddress}
          </label>
          {macError && (
            <p className="sc-field-error" id={`${idBase}-mac-error`} role="alert" data-testid="mac-error">
              {macError}
            </p>
          )}
          <div className="sc-mac-row">
            <input
              ref={macRef}
              id={`${idBase}-mac`}
              className="sc-input"
              value={mac}
              placeholder="00:1A:79:12:34:56"
              autoComplete="off"
              spellCheck={false}
              maxLength={64}
              data-testid="mac-input"
              aria-invalid={macError ? true : undefined}
              aria-describedby={macError ? `${idBase}-mac-error ${idBase}-mac-hint` : `${idBase}-mac-hint`}
              onChange={(e) => {
                setMac(e.target.value);
                setMacError(null);
              }}
            />
            <BusyButton type="submit" testId="mac-save" busy={busy === 'mac'} blocked={busy !== null} busyLabel={a.working}>
              {a.saveMac}
            </BusyButton>
          </div>
          <p className="sc-hint" id={`${idBase}-mac-hint`}>
            {a.macHint}
          </p>
        </form>
      )}

      {manage && active && !confirming && (
        <div className="sc-service-actions">
          <BusyButton
            className={SMALL}
            testId="service-restart"
            busy={busy === 'restart'}
            blocked={busy !== null}
            busyLabel={a.working}
            onClick={() =>
              void run(
                'restart',
                () => api.restart(s.serviceId),
                () => a.restarted,
              )
            }
          >
            {a.restart}
          </BusyButton>
          <BusyButton
            className={SMALL}
            testId="service-recreate"
            busy={busy === 'recreate'}
            blocked={busy !== null}
            busyLabel={a.working}
            onClick={() =>
              void run(
                'recreate',
                () => api.recreate(s.serviceId),
                () => a.recreated,
              )
            }
          >
            {a.recreate}
          </BusyButton>
          <BusyButton
            buttonRef={terminateRef}
            className={SMALL}
            testId="service-terminate"
            blocked={busy !== null}
            onClick={() => setConfirming(true)}
          >
            {a.terminate}
          </BusyButton>
        </div>
      )}
      {active && confirming && (
        <div className="sc-confirm" role="alertdialog" aria-labelledby={`${idBase}-terminate-q`} data-testid="terminate-confirm">
          <p id={`${idBase}-terminate-q`}>{a.terminateConfirm(s.name)}</p>
          <div className="sc-actions">
            <BusyButton
              className="sc-btn sc-btn-danger"
              testId="terminate-yes"
              busy={busy === 'terminate'}
              blocked={busy !== null}
              busyLabel={a.working}
              onClick={() =>
                void run(
                  'terminate',
                  () => api.terminate(s.serviceId),
                  () => a.terminated,
                )
              }
            >
              {a.terminateYes}
            </BusyButton>
            <BusyButton
              buttonRef={keepRef}
              className="sc-btn sc-btn-ghost"
              testId="terminate-no"
              blocked={busy !== null}
              onClick={() => setConfirming(false)}
            >
              {a.keep}
            </BusyButton>
          </div>
        </div>
      )}

      <StatusNote message={message} testId="service-message" />
      {error && <Alert testId="service-error">{error}</Alert>}
    </section>
  );
}
