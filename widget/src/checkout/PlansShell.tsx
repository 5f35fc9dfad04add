// The plan page as the first script paints it, before dist/checkout.js is there: the same heading
// and plan cards as flow/IndexPage.tsx (which replaces it in the same markup once the chunk has
// loaded), without the checkout form below them.
import { useEffect } from 'react';
import { useCheckout, useController, useI18n, useResource } from '../flow/context';
import { cardCycle, PlanGrid, StoreLogo } from '../flow/PlanGrid';
import { ManageLink } from '../flow/Views';
import { catalogKey } from '../state/catalog';

/** Runs `fn` once the browser has painted the current frame. */
function afterPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(fn);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(fn);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/**
 * `need` asks for the checkout module: right after the cards paint, or at once when the buyer acts.
 * `onContinue`: Enter on a card, to be carried out once the module is there.
 */
export function PlansShell({ need, onContinue }: { need: () => void; onContinue: () => void }) {
  const c = useController();
  const { t, locale } = useI18n();
  const currency = useCheckout((s) => s.currency);
  const selection = useCheckout((s) => s.selection);
  const key = catalogKey.products('plan', currency, locale);
  const products = useResource(key, () => c.cached(key, () => c.client.products(currency, locale)));

  // Spec §9: the first three products; the first paid plan is pre-selected (as IndexPage does).
  const list = (products.data?.products ?? []).slice(0, 3);
  const product = list.find((p) => p.pid === selection?.pid) ?? list.find((p) => !p.trial) ?? list[0] ?? null;
  const cycle = product ? cardCycle(product, selection?.cycle ?? null) : null;
  const settled = products.status !== 'loading';

  useEffect(
    () =>
      settled
        ? afterPaint(() => {
            need();
            c.prefetch('checkout');
          })
        : undefined,
    [settled, need, c],
  );

  // The buyer's first touch of the page fetches the checkout's code at once: listeners that start a
  // download, not controls, so the container says it is none (presentation: no role of its own).
  return (
    <div className="sc-page sc-index" role="presentation" onPointerDown={need} onKeyDown={need} onFocus={need}>
      <ManageLink />
      <section className="sc-section" aria-labelledby="sc-plans-title">
        <header className="sc-section-head">
          <StoreLogo />
          <h2 className="sc-title" id="sc-plans-title" tabIndex={-1}>
            {t.choosePlan}
          </h2>
          <p className="sc-lead">{t.choosePlanLead}</p>
        </header>
        {!products.data ? (
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
            cycle={cycle}
            busy={products.status === 'loading'}
            onSelect={(pid) => {
              const p = list.find((x) => x.pid === pid);
              if (p) c.select({ pid, cycle: cardCycle(p, cycle) }, { emit: true });
            }}
            onContinue={onContinue}
          />
        )}
      </section>
    </div>
  );
}
