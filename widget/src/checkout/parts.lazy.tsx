// Script-tag builds: stand-ins for parts.ts (vite.config.ts swaps them in). The plan cards paint
// from this bundle (PlansShell); dist/checkout.js is fetched right after they paint, or at once
// when the buyer touches the widget or the route needs it, and its screens take over.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useController, useI18n } from '../flow/context';
import type { Group } from '../flow/order';
import { Centered, HomeLink } from '../flow/Views';
import type { Controller } from '../state/controller';
import type { Checkout } from './entry';
import { checkoutLoaded, loadCheckout, subscribeCheckout } from './load';
import { PlansShell } from './PlansShell';

function useChunk() {
  const chunk = useSyncExternalStore(subscribeCheckout, checkoutLoaded);
  const [failed, setFailed] = useState(false);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  const need = useCallback(() => {
    setFailed(false);
    loadCheckout().catch(() => {
      if (live.current) setFailed(true);
    });
  }, []);
  return { chunk, failed, need };
}

function LoadFailed({ retry }: { retry: () => void }) {
  const { t } = useI18n();
  return (
    <div role="alert">
      <Centered icon="alert" tone="error" title={t.errorTitle}>
        <p className="sc-lead">{t.errorText}</p>
        <div className="sc-actions">
          <button type="button" className="sc-btn sc-btn-primary" onClick={retry}>
            {t.tryAgain}
          </button>
          <HomeLink className="sc-btn sc-btn-ghost">{t.backHome}</HomeLink>
        </div>
      </Centered>
    </div>
  );
}

/** A screen of the chunk: a spinner until it is there. */
function Deferred({ render }: { render: (chunk: Checkout) => ReactNode }) {
  const { t } = useI18n();
  const { chunk, failed, need } = useChunk();
  useEffect(() => {
    if (!chunk) need();
  }, [chunk, need]);
  if (chunk) return render(chunk);
  if (failed) return <LoadFailed retry={need} />;
  return <Centered icon="spinner" tone="busy" title={t.loading} />;
}

export function Waiting(props: { reseller?: boolean }) {
  return <Deferred render={(chunk) => <chunk.Waiting {...props} />} />;
}

export function Success() {
  return <Deferred render={(chunk) => <chunk.Success />} />;
}

/** The plan page: PlansShell until the chunk is there, then the real one. */
export function IndexPage({ group }: { group: Group }) {
  const c = useController();
  const { chunk, failed, need } = useChunk();
  // The real page replaces the shell's cards with its own in one commit: a card that had keyboard
  // focus hands it to its successor.
  const focusPid = useRef<string | null>(null);
  useEffect(
    () =>
      subscribeCheckout(() => {
        const active = c.host.shadowRoot?.activeElement;
        focusPid.current = active instanceof HTMLElement && active.classList.contains('sc-plan') ? (active.dataset.pid ?? null) : null;
      }),
    [c],
  );
  useLayoutEffect(() => {
    const pid = focusPid.current;
    focusPid.current = null;
    if (chunk && pid) c.host.shadowRoot?.querySelector<HTMLElement>(`.sc-plan[data-pid="${pid}"]`)?.focus();
  }, [chunk, c]);
  useEffect(() => {
    if (group !== 'plan') need();
  }, [group, need]);
  if (chunk) return <chunk.IndexPage group={group} />;
  if (group !== 'plan') return failed ? <LoadFailed retry={need} /> : null;
  return <PlansShell need={need} failed={failed} />;
}

/** The landing actions all start from an email in the URL; without one there is nothing to load. */
export function runLanding(c: Controller): void {
  if (!c.landing.email) return;
  loadCheckout().then(
    (chunk) => chunk.runLanding(c),
    () => undefined,
  );
}
