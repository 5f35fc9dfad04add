// The plan page: the heading and the plan cards (the first paint), then the checkout form below
// them, its own chunk, rendered once the cards have painted or as soon as the buyer acts.
import { Suspense, useEffect, useState } from 'react';
import type { Product } from '../../api/schemas';
import { catalogKey } from '../../core/catalog';
import type { Group } from '../../core/order';
import { useCheckout, useController, useI18n, useResource } from '../../ui/context';
import { useStepFocus } from '../../ui/focus';
import { Icon } from '../../ui/icons';
import { cardCycle, PlanGrid, StoreLogo } from '../../ui/PlanGrid';
import { ManageLink } from '../../ui/Views';
import { CardTerms, CheckoutForm, preloadOrder } from '../index';

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

/** Set once the form has been asked for on this page: from then on it renders with the cards. */
let formAskedFor = false;

/** Plans pre-select the first paid plan; reseller plans their second one (spec §9). */
function defaultProduct(all: Product[], group: Group): Product {
  // Not a plan that is temporarily unavailable while another one can be bought.
  const list = all.some((p) => p.available) ? all.filter((p) => p.available) : all;
  if (group === 'reseller') return list[1] ?? list[0]!;
  return list.find((p) => !p.trial) ?? list[0]!;
}

export function PlansPage({ group }: { group: Group }) {
  const c = useController();
  const { t, locale } = useI18n();
  const currency = useCheckout((s) => s.currency);
  const selection = useCheckout((s) => s.selection);
  const attempt = useCheckout((s) => s.attempt);
  // The form's chunk is asked for only after the cards have painted (the first paint carries the
  // cards alone), or at once when the buyer acts on the page.
  const [formWanted, setFormWanted] = useState(formAskedFor);
  const wantForm = () => {
    if (!formAskedFor) preloadOrder();
    formAskedFor = true;
    setFormWanted(true);
  };
  const [continued, setContinued] = useState(0);

  const productsKey = catalogKey.products(group, currency, locale);
  const products = useResource(productsKey, () =>
    c.cached(productsKey, () => (group === 'plan' ? c.client.products(currency, locale) : c.client.resellerProducts(currency, locale))),
  );

  // Spec §9: only the first three products are listed.
  const list = (products.data?.products ?? []).slice(0, 3);
  const product = list.find((p) => p.pid === selection?.pid) ?? null;
  const cycle = product ? cardCycle(product, selection?.cycle ?? null) : null;
  const settled = products.status !== 'loading';

  // Keep a valid selection: the requested plan when listed, else the default one.
  useEffect(() => {
    if (!list.length) return;
    // Read the live selection, not this render's: open() may have changed it since.
    const current = c.getState().selection;
    const asked = list.find((p) => p.pid === current?.pid);
    const target = asked?.available ? asked : defaultProduct(list, group);
    const cy = cardCycle(target, current?.cycle ?? null);
    if (target.pid !== current?.pid || cy !== current?.cycle) c.select({ pid: target.pid, cycle: cy });
  });

  // Spec §8 "no products returned: catalogue marked not found".
  useEffect(() => {
    if (products.status !== 'ok') return;
    const notFound = products.data.products.length === 0;
    if (c.getState().persisted.products.notFound !== notFound) c.update((p) => ({ ...p, products: { ...p.products, notFound } }));
  }, [products.status, products.data, c]);

  useEffect(
    () =>
      settled
        ? afterPaint(() => {
            wantForm();
            c.prefetch('checkout');
          })
        : undefined,

    [settled, c],
  );

  // Back from a failed or re-priced order attempt, the summary's message (shown once the plans
  // are there) is what to read first.
  const attention = !!product && (attempt.status === 'failed' || attempt.status === 'priceChanged');
  const heading = useStepFocus<HTMLHeadingElement>(
    attention,
    () => c.host.shadowRoot?.querySelector<HTMLElement>('[data-step-focus]') ?? null,
  );

  if (products.status === 'error' && !products.data) {
    return <LoadError onRetry={products.reload} />;
  }

  // The buyer's first touch of the page fetches the checkout form's code at once: listeners that
  // start a download, not controls, so the container says it is none (presentation).
  return (
    <div className="sc-page sc-index" role="presentation" onPointerDown={wantForm} onKeyDown={wantForm} onFocus={wantForm}>
      {group === 'plan' && <ManageLink />}
      <section className="sc-section" aria-labelledby="sc-plans-title">
        <header className="sc-section-head">
          {group === 'plan' && <StoreLogo />}
          <h2 className="sc-title" id="sc-plans-title" ref={heading} tabIndex={-1}>
            {group === 'reseller' ? t.resellerTitle : t.choosePlan}
          </h2>
          <p className="sc-lead">{group === 'reseller' ? t.resellerLead : t.choosePlanLead}</p>
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
            cycle={cycle}
            busy={products.status === 'loading'}
            onSelect={(pid) => {
              const p = list.find((x) => x.pid === pid);
              if (p?.available) c.select({ pid, cycle: cardCycle(p, cycle) }, { emit: true });
            }}
            onContinue={() => setContinued((n) => n + 1)}
            terms={
              formWanted
                ? (p, cy) => (
                    <Suspense fallback={null}>
                      <CardTerms product={p} cycle={cy} />
                    </Suspense>
                  )
                : undefined
            }
          />
        )}
      </section>

      {product && formWanted && (
        <Suspense fallback={null}>
          <CheckoutForm group={group} product={product} cycle={cycle} continued={continued} />
        </Suspense>
      )}
    </div>
  );
}

function LoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useI18n();
  const heading = useStepFocus<HTMLHeadingElement>();
  return (
    <div className="sc-page sc-center" role="alert">
      <Icon name="alert" className="sc-hero-icon is-error" />
      <h2 className="sc-title" ref={heading} tabIndex={-1}>
        {t.errorTitle}
      </h2>
      <p className="sc-lead">{t.errorText}</p>
      <button type="button" className="sc-btn sc-btn-primary" onClick={onRetry}>
        {t.tryAgain}
      </button>
    </div>
  );
}
