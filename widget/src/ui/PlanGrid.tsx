import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { Cycle, Product } from '../api/schemas';
import { useCheckout, useController, useI18n } from './context';
import { Icon } from './icons';

interface Props {
  products: Product[];
  selectedPid: number | null;
  cycle: Cycle | null;
  onSelect: (pid: number) => void;
  /** Enter on a card: chosen, on to the checkout form (Space only chooses, as on a radio). */
  onContinue?: () => void;
  busy?: boolean;
  /** A card's terms (what renews, the saving against monthly), rendered by the checkout chunk once it is there. */
  terms?: (product: Product, cycle: Cycle | null) => ReactNode;
}

/** The cycle a card shows: the chosen one when the plan offers it, else the plan's first. */
export function cardCycle(product: Product, cycle: Cycle | null): Cycle | null {
  if (cycle && product.cycles.includes(cycle)) return cycle;
  return product.cycles[0] ?? null;
}

/** The storefront's logo above the plans, once GET /storefront has named one. */
export function StoreLogo() {
  const c = useController();
  const store = useCheckout((s) => s.storefront);
  if (!store?.logo) return null;
  // A path ("/logo.svg") is on the shop's origin, not the host page's.
  const src = new URL(store.logo, new URL(c.config.api, location.href)).href;
  // Sized here, not in widget.css: the rule would otherwise ride in the first script's CSS half.
  return (
    <img part="logo" src={src} alt={store.name} style={{ display: 'block', maxHeight: 40, maxWidth: '100%', margin: '0 auto 16px' }} />
  );
}

/** Three plan cards as one radio group (arrow keys move the choice, as with native radios). */
export function PlanGrid({ products, selectedPid, cycle, onSelect, onContinue, busy, terms }: Props) {
  const { t, money } = useI18n();
  const refs = useRef<(HTMLDivElement | null)[]>([]);

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>, index: number) {
    let next = -1;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = (index + 1) % products.length;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') next = (index - 1 + products.length) % products.length;
    else if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      onSelect(products[index]!.pid);
      if (e.key === 'Enter') onContinue?.();
      return;
    }
    if (next < 0) return;
    e.preventDefault();
    onSelect(products[next]!.pid);
    refs.current[next]?.focus();
  }

  const selectedIndex = Math.max(
    0,
    products.findIndex((p) => p.pid === selectedPid),
  );

  return (
    <div className="sc-grid" role="radiogroup" aria-label={t.plansLabel} aria-busy={busy || undefined}>
      {products.map((p, i) => {
        const selected = p.pid === selectedPid;
        const cy = cardCycle(p, cycle);
        const price = cy ? p.pricing[cy] : undefined;
        const isFree = p.trial || (price?.amount ?? 0) === 0;
        // Temporarily unavailable (the panel's credits): shown, never chosen (PlansPage's onSelect).
        const off = !p.available;
        return (
          <div
            key={p.pid}
            ref={(el) => {
              refs.current[i] = el;
            }}
            className={`sc-plan${selected ? ' is-selected' : ''}${p.soldBadge ? ' has-ribbon' : ''}`}
            part={selected ? 'plan-card plan-card-selected' : 'plan-card'}
            role="radio"
            aria-checked={selected}
            aria-disabled={off || undefined}
            aria-labelledby={`sc-plan-${p.pid}-name`}
            aria-describedby={`sc-plan-${p.pid}-price${off ? ` sc-plan-${p.pid}-na` : ''}`}
            tabIndex={i === selectedIndex ? 0 : -1}
            data-testid="plan-card"
            data-pid={p.pid}
            onClick={() => onSelect(p.pid)}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {p.soldBadge && <span className="sc-ribbon">{p.soldBadge}</span>}
            <div className="sc-plan-head">
              <h3 className="sc-plan-name" id={`sc-plan-${p.pid}-name`}>
                {p.name}
              </h3>
              {p.trial && <span className="sc-badge sc-badge-trial">{t.freeTrial}</span>}
            </div>
            <div className="sc-plan-price" id={`sc-plan-${p.pid}-price`}>
              <span className="sc-price">{isFree ? t.free : price ? money(price) : '—'}</span>
              {cy && !isFree && <span className="sc-cycle">{t.perCycle[cy]}</span>}
            </div>
            {isFree ? <p className="sc-plan-cycle">{t.noCreditCard}</p> : cy && <p className="sc-plan-cycle">{t.cycles[cy]}</p>}
            {p.description && <p className="sc-plan-desc">{p.description}</p>}
            {p.features.length > 0 && (
              <ul className="sc-features">
                {p.features.map((f) => (
                  <li key={f}>
                    <Icon name="check" />
                    <span>{f}</span>
                  </li>
                ))}
              </ul>
            )}
            {p.credits > 0 && <p className="sc-plan-credits">{t.credits(p.credits)}</p>}
            {p.guarantee && !(isFree && p.guarantee.trim().toLowerCase() === t.noCreditCard.toLowerCase()) && (
              <p className="sc-guarantee">
                <Icon name="shield" />
                <span>{p.guarantee}</span>
              </p>
            )}
            {terms?.(p, cy)}
            <span className="sc-plan-select" aria-hidden={!off} id={`sc-plan-${p.pid}-na`}>
              {off ? (
                t.unavailable
              ) : selected ? (
                <>
                  <Icon name="check" /> {t.selected}
                </>
              ) : (
                t.select
              )}
            </span>
          </div>
        );
      })}
    </div>
  );
}
