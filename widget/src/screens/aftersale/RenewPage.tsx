// /renew?invoice=…&t=…: a renewal invoice paid from the pay link of a reminder email, without
// signing in (the link's token is good for that one invoice until it closes). Back from the
// payment page (&return=1) it waits for the payment, then shows the renewal paid.
import { useEffect, useState } from 'react';
import type { Cycle } from '../../api/schemas';
import { useAfterSaleError, useApi } from './hooks';
import { GatewayChoice } from './Gateways';
import { isApiError } from '../../api/client';
import { browser } from '../../core/browser';
import { timing } from '../../core/timing';
import { Centered } from '../../ui/Views';
import { useCheckout, useController, useResource } from '../../ui/context';
import { useAfterSaleTexts } from '../../ui/texts';
import { useStepFocus } from '../../ui/focus';
import { Icon } from '../../ui/icons';
import { renewReturnUrl } from '../../core/returns';
import { ScreenSkeleton } from './Skeleton';
import { formatDecimal } from '../../i18n/amounts';

export function RenewPage() {
  const query = useCheckout((s) => s.route.query);
  const invoiceId = query.invoice ?? '';
  const token = query.t ?? '';
  if (!invoiceId || !token) return <LinkInvalid />;
  return <Invoice key={`${invoiceId}:${token}`} invoiceId={invoiceId} token={token} returned={query.return === '1'} />;
}

function Invoice({ invoiceId, token, returned }: { invoiceId: string; token: string; returned: boolean }) {
  const c = useController();
  const api = useApi();
  const { a, t, locale, money, date } = useAfterSaleTexts();
  const errText = useAfterSaleError();
  const inv = useResource(`invoice:${invoiceId}:${token}:${locale}`, () => api.invoice(invoiceId, token));
  const [chosen, setChosen] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [payError, setPayError] = useState<string | null>(null);
  const data = inv.data;
  const paid = data?.status === 'paid';
  const heading = useStepFocus<HTMLHeadingElement>(`${data?.status ?? inv.status}:${returned}`);

  // Back from the payment page: ask again until the payment has arrived.
  useEffect(() => {
    if (!returned || inv.status !== 'ok' || paid) return;
    const timer = setTimeout(inv.reload, timing.pollMs);
    return () => clearTimeout(timer);
  }, [returned, inv.status, inv.data, paid, inv.reload]);

  useEffect(() => {
    if (!data || data.status !== 'paid') return;
    c.emitOnce(`renewal-paid:${data.invoiceId}`, 'streamcart:renewal-paid', {
      invoiceId: data.invoiceId,
      orderId: data.orderId,
      serviceId: data.serviceId,
    });
  }, [data, c]);

  if (inv.status === 'error' && isApiError(inv.error) && inv.error.code === 'not_found') return <LinkInvalid />;
  if (!data) {
    if (inv.status === 'error') {
      return (
        <Centered icon="alert" tone="error" title={t.errorTitle}>
          <p className="sc-lead" role="alert">
            {errText(inv.error)}
          </p>
          <button type="button" className="sc-btn sc-btn-primary" onClick={inv.reload}>
            {t.tryAgain}
          </button>
        </Centered>
      );
    }
    return <ScreenSkeleton label={a.loadingInvoice} layout="narrow" cards={1} testId="renew-loading" />;
  }

  if (paid) {
    return (
      <Centered icon="check" tone="ok" title={a.invoicePaidTitle} testId="renew-paid">
        <p className="sc-lead">{a.invoicePaidLead(date(data.periodEnd || data.nextDueDate))}</p>
        <div className="sc-actions">
          <button type="button" className="sc-btn sc-btn-primary" onClick={() => c.navigate('', { view: 'services' })}>
            {a.manage}
          </button>
        </div>
      </Centered>
    );
  }

  if (returned) {
    return (
      <Centered icon="spinner" tone="busy" title={a.invoiceConfirming} testId="renew-confirming">
        <p className="sc-lead">{t.waitingHint}</p>
        <button
          type="button"
          className="sc-btn sc-btn-ghost"
          data-testid="renew-show-invoice"
          onClick={() => c.navigate('renew', { invoice: invoiceId, t: token }, { replace: true })}
        >
          {a.showInvoice}
        </button>
      </Centered>
    );
  }

  const gateway = chosen && data.gateways.some((g) => g.module === chosen) ? chosen : data.gateway || data.gateways[0]?.module || null;
  const cycle = (t.cycles as Record<string, string>)[data.billingCycle as Cycle] ?? data.billingCycle;

  async function pay() {
    if (paying) return;
    setPaying(true);
    setPayError(null);
    try {
      const p = await api.payInvoice(invoiceId, token, {
        ...(gateway ? { gateway } : {}),
        returnUrl: renewReturnUrl(c.place(), invoiceId, token),
      });
      const paymentUrl = c.client.resolve(p.paymentUrl);
      c.emit('streamcart:payment-started', { orderId: p.orderId || data!.orderId, gateway: gateway ?? '', paymentUrl });
      browser.assign(paymentUrl);
    } catch (e) {
      setPaying(false);
      if (isApiError(e) && e.code === 'conflict')
        inv.reload(); // paid meanwhile: show it paid
      else if (isApiError(e) && e.code === 'not_found')
        inv.reload(); // closed meanwhile: the link is no longer valid
      else {
        if (isApiError(e) && e.code === 'malformed') c.fail(e);
        setPayError(errText(e));
      }
    }
  }

  return (
    <div className="sc-page sc-narrow" data-testid="renew-view">
      <header className="sc-section-head">
        <h2 className="sc-title" ref={heading} tabIndex={-1}>
          {a.invoiceTitle}
        </h2>
        <p className="sc-lead">{a.invoiceLead}</p>
      </header>
      <section className="sc-card" aria-labelledby="sc-invoice-name" data-testid="invoice">
        <div className="sc-cred-head">
          <h3 className="sc-card-title" id="sc-invoice-name" data-testid="invoice-service">
            {data.serviceName}
          </h3>
          {data.serviceStatus && (
            <span
              className={`sc-status sc-status-${data.serviceStatus.toLowerCase()}`}
              data-testid="invoice-service-status"
              data-status={data.serviceStatus}
            >
              {(t.statuses as Record<string, string>)[data.serviceStatus] ?? data.serviceStatus}
            </span>
          )}
        </div>
        <dl className="sc-facts">
          {data.username && (
            <div>
              <dt>{a.line}</dt>
              <dd data-testid="invoice-username">{data.username}</dd>
            </div>
          )}
          {cycle && (
            <div>
              <dt>{t.billing}</dt>
              <dd>{cycle}</dd>
            </div>
          )}
          {data.periodStart && data.periodEnd && (
            <div>
              <dt>{a.period}</dt>
              <dd data-testid="invoice-period">{a.periodRange(date(data.periodStart), date(data.periodEnd))}</dd>
            </div>
          )}
          {data.paymentDeadline && (
            <div>
              <dt>{a.payBy}</dt>
              <dd data-testid="invoice-deadline">{date(data.paymentDeadline.slice(0, 10))}</dd>
            </div>
          )}
        </dl>
        {data.serviceStatus === 'Suspended' && (
          <p className="sc-alert sc-alert-warn">
            <Icon name="alert" />
            {a.suspendedNote}
          </p>
        )}
        <table className="sc-invoice-lines">
          <tbody>
            {data.lines.map((l, i) => (
              <tr key={i} data-testid="invoice-line">
                <td>{l.description}</td>
                <td className="sc-amount">{money(l.amount)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {data.tax && data.net && (
              // A taxed renewal: its net and its VAT (rate, country), as the checkout and the PDF show them.
              <>
                <tr className="sc-invoice-sub" data-testid="invoice-net">
                  <th scope="row">{t.net}</th>
                  <td className="sc-amount">{money(data.net)}</td>
                </tr>
                <tr className="sc-invoice-sub" data-testid="invoice-tax">
                  <th scope="row">{t.taxLine(formatDecimal(Number(data.tax.rate), locale), data.tax.country)}</th>
                  <td className="sc-amount">{money({ amount: data.tax.amount, currency: data.tax.currency })}</td>
                </tr>
              </>
            )}
            <tr>
              <th scope="row">{t.total}</th>
              <td className="sc-amount" data-testid="invoice-total">
                {money(data.total)}
              </td>
            </tr>
          </tfoot>
        </table>
      </section>
      <GatewayChoice list={data.gateways} gateway={gateway} choose={setChosen} title={t.paymentMethod} />
      {payError && (
        <p className="sc-alert" role="alert" data-testid="invoice-error">
          <Icon name="alert" />
          {payError}
        </p>
      )}
      <div className="sc-actions">
        <button
          type="button"
          className="sc-btn sc-btn-primary sc-pay"
          data-testid="invoice-pay"
          aria-disabled={paying || undefined}
          aria-busy={paying || undefined}
          onClick={() => void pay()}
        >
          {paying ? t.processing : t.pay(money(data.total))}
        </button>
      </div>
    </div>
  );
}

function LinkInvalid() {
  const c = useController();
  const { a } = useAfterSaleTexts();
  return (
    <Centered icon="alert" tone="error" title={a.linkInvalidTitle} testId="renew-invalid">
      <p className="sc-lead">{a.linkInvalidLead}</p>
      <div className="sc-actions">
        <button type="button" className="sc-btn sc-btn-primary" onClick={() => c.navigate('', { view: 'services' })}>
          {a.manage}
        </button>
      </div>
    </Centered>
  );
}
