// The creating-order and not-found views: only dist/checkout.js shows them (checkout/parts.ts).
import { useEffect } from 'react';
import { useCheckout, useController, useI18n } from './context';
import { Centered, HomeLink } from './Views';

export function CreatingOrder() {
  const c = useController();
  const { t } = useI18n();
  const attempt = useCheckout((s) => s.attempt);

  // Reached by reload or the back button with no order under way: back to the plans.
  useEffect(() => {
    if (attempt.status === 'idle' || attempt.status === 'failed' || attempt.status === 'priceChanged')
      c.navigate('', {}, { replace: true });
  }, [attempt.status, c]);

  if (attempt.status === 'redirecting') {
    return (
      <Centered icon="spinner" tone="busy" title={t.redirecting}>
        <p className="sc-lead" role="status">
          <a className="sc-link" href={attempt.paymentUrl}>
            {t.completePayment}
          </a>
        </p>
      </Centered>
    );
  }
  return (
    <Centered icon="spinner" tone="busy" title={t.creatingOrder}>
      <p className="sc-lead" role="status">
        {t.creatingOrderHint}
      </p>
    </Centered>
  );
}

export function NotFound() {
  const { t } = useI18n();
  return (
    <Centered icon="help" title={t.notFound} testId="not-found">
      <p className="sc-status-code" aria-hidden="true">
        404
      </p>
      <HomeLink>{t.backHome}</HomeLink>
    </Centered>
  );
}
