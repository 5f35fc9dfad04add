// The total and Pay kept in sight on a narrow screen (issue 25): where the summary sits below the
// form, a bar sticks to the bottom of the checkout while the buyer scrolls through the options,
// and steps aside once the summary's own Pay button is in view. Its Pay does what that one does.
import { useEffect, useState } from 'react';
import type { Money } from '../../api/schemas';
import { useController } from '../../ui/context';
import { useTexts } from '../../ui/texts';
import { Icon } from '../../ui/icons';

/** Whether the summary's Pay button is on screen (true where that cannot be known). */
function useSummaryPayInView(): boolean {
  const c = useController();
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const pay = c.host.shadowRoot?.querySelector('[data-testid="pay-button"]');
    if (!pay || typeof IntersectionObserver === 'undefined') {
      setInView(true);
      return;
    }
    const io = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting)), { threshold: 0.5 });
    io.observe(pay);
    return () => io.disconnect();
  }, [c]);
  return inView;
}

export function PayBar({ total, free, off, onPay }: { total: Money | null; free: boolean; off: boolean; onPay: () => void }) {
  const { t, money } = useTexts('checkout');
  const hidden = useSummaryPayInView();
  if (hidden) return null;
  return (
    // A shortcut for the eye and the pointer: keyboards and screen readers have the summary's own
    // total and Pay button, so this copy is hidden from them (aria-hidden, out of the tab order).
    <div className="sc-paybar" data-testid="sticky-total" aria-hidden="true">
      <div className="sc-paybar-total">
        <span>{t.total}</span>
        <strong data-testid="sticky-total-amount">{total ? money(total) : '—'}</strong>
      </div>
      <button
        type="button"
        className="sc-btn sc-btn-primary"
        data-testid="sticky-pay"
        aria-disabled={off || undefined}
        tabIndex={-1}
        onClick={() => {
          if (!off) onPay();
        }}
      >
        {free ? (
          t.startTrial
        ) : (
          <>
            <Icon name="lock" /> {total ? t.pay(money(total)) : t.total}
          </>
        )}
      </button>
    </div>
  );
}
