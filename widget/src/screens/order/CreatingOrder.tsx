// The step between Pay and the payment page: the order is being created, then the redirect.
import { useEffect } from 'react';
import { useCheckout, useController } from '../../ui/context';
import { useTexts } from '../../ui/texts';
import { Centered } from '../../ui/Views';
import { useSheet } from '../../element/styles';
import componentsCss from '../../ui/components.css?inline';
import orderCss from './order.css?inline';

export function CreatingOrder() {
  useSheet(componentsCss);
  useSheet(orderCss);
  const c = useController();
  const { t } = useTexts('order');
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
