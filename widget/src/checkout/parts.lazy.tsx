// Script-tag builds: stand-ins for parts.ts (vite.config.ts swaps them in). The plan cards paint
// from this bundle (PlansShell); dist/checkout.js is fetched right after they paint, or at once
// when the buyer touches the widget or the route needs it, and its screens take over.
import { useCallback, useEffect, useLayoutEffect, useRef, useSyncExternalStore, type ComponentProps, type ReactNode } from 'react';
import { AfterSale as AfterSaleScreens } from '../flow/AfterSale';
import { useController, useI18n } from '../flow/context';
import type { Group } from '../flow/order';
import { Centered } from '../flow/Views';
import type { Controller } from '../state/controller';
import type { Checkout } from './entry';
import { checkoutLoaded, loadCheckout, needCheckout, subscribeCheckout } from './load';
import { PlansShell } from './PlansShell';

function useChunk() {
  const c = useController();
  const chunk = useSyncExternalStore(subscribeCheckout, checkoutLoaded);
  const need = useCallback(() => needCheckout(c), [c]);
  return { chunk, need };
}

/** A screen of the chunk: a spinner until it is there. */
function Deferred({ render }: { render: (chunk: Checkout) => ReactNode }) {
  const { t } = useI18n();
  const { chunk, need } = useChunk();
  useEffect(() => {
    if (!chunk) need();
  }, [chunk, need]);
  return chunk ? render(chunk) : <Centered icon="spinner" tone="busy" title={t.loading} />;
}

export function Waiting(props: { reseller?: boolean }) {
  return <Deferred render={(chunk) => <chunk.Waiting {...props} />} />;
}

export function Success() {
  return <Deferred render={(chunk) => <chunk.Success />} />;
}

export function CreatingOrder() {
  return <Deferred render={(chunk) => <chunk.CreatingOrder />} />;
}

export function NotFound() {
  return <Deferred render={(chunk) => <chunk.NotFound />} />;
}

/** The after-sale screens load their own chunk; they read the whole English tables dist/checkout.js brings. */
export function AfterSale(props: ComponentProps<typeof AfterSaleScreens>) {
  return <Deferred render={() => <AfterSaleScreens {...props} />} />;
}

/** The plan page: PlansShell until the chunk is there, then the real one. */
export function IndexPage({ group }: { group: Group }) {
  const c = useController();
  const { chunk, need } = useChunk();
  // The real page replaces the shell's markup with its own in one commit: the control that had
  // keyboard focus (a card by its plan, a link by its test id) hands it to its successor, and
  // Enter pressed on a card meanwhile goes on to the form as it does once the chunk is there.
  const go = useRef(false);
  const focus = useRef<string | null>(null);
  useEffect(
    () =>
      subscribeCheckout(() => {
        const a = c.host.shadowRoot?.activeElement;
        const pid = a?.getAttribute('data-pid');
        const id = a?.getAttribute('data-testid');
        focus.current = pid ? (go.current ? '#sc-cycle' : `[data-pid="${pid}"]`) : id ? `[data-testid="${id}"]` : null;
      }),
    [c],
  );
  useLayoutEffect(() => {
    const target = focus.current;
    focus.current = null;
    if (chunk && target) c.host.shadowRoot?.querySelector<HTMLElement>(target)?.focus();
  }, [chunk, c]);
  if (chunk) return <chunk.IndexPage group={group} />;
  return group === 'plan' ? (
    <PlansShell
      need={need}
      onContinue={() => {
        go.current = true;
      }}
    />
  ) : (
    <Deferred render={(k) => <k.IndexPage group={group} />} />
  );
}

/** The landing actions all start from an email in the URL; without one there is nothing to load. */
export function runLanding(c: Controller): void {
  if (!c.landing.email) return;
  loadCheckout().then(
    (chunk) => chunk.runLanding(c),
    () => undefined,
  );
}
