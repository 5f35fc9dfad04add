// /upsell: extra connections for an active service (spec §1, §3, §4), priced by the server for
// the service's billing cycle; paid through its own invoice, then back to /waiting and /success.
import { useEffect, useState } from 'react';
import type { Cycle } from '../../api/schemas';
import type { UpsellQuote } from '../../api/aftersale';
import { useAfterSaleError, useApi, useProven } from './hooks';
import { SignIn, SigningIn, useSigninLanding } from './SignIn';
import { GatewayChoice, useGateways } from './Gateways';
import { isApiError } from '../../api/client';
import { browser } from '../../core/browser';
import { Centered, HomeLink } from '../../ui/Views';
import { useCheckout, useController, useResource } from '../../ui/context';
import { formatDecimal } from '../../i18n/amounts';
import { useAfterSaleTexts } from '../../ui/texts';
import { useStepFocus } from '../../ui/focus';
import { Icon } from '../../ui/icons';
import { getService } from '../../api/orders';
import { returnUrl } from '../../core/returns';
import { ScreenSkeleton } from './Skeleton';

export function UpsellPage() {
  const landing = useSigninLanding();
  const proven = useProven();
  const { a } = useAfterSaleTexts();
  const errText = useAfterSaleError();
  if (landing.busy) return <SigningIn />;
  if (!proven) return <SignIn view="upsell" lead={a.upsellSignInLead} notice={landing.error ? errText(landing.error) : null} />;
  return <UpsellOffers />;
}

function UpsellOffers() {
  const c = useController();
  const api = useApi();
  const { a, t, money, locale } = useAfterSaleTexts();
  const errText = useAfterSaleError();
  const token = useCheckout((s) => s.persisted.token);
  const currency = useCheckout((s) => s.currency);
  const offers = useResource(`offers:${currency}:${token}`, () => api.offers(currency));
  const [serviceId, setServiceId] = useState<string | null>(null);
  const [qty, setQty] = useState(1);
  const [quote, setQuote] = useState<UpsellQuote | null>(null);
  const [quoteError, setQuoteError] = useState<unknown>(null);
  const [paying, setPaying] = useState(false);
  const [payError, setPayError] = useState<string | null>(null);
  const gateways = useGateways();
  const heading = useStepFocus<HTMLHeadingElement>(!!offers.data?.offers.length);

  const list = offers.data?.offers ?? [];
  const offer = list.find((o) => o.serviceId === serviceId) ?? list[0] ?? null;
  const max = offer ? Math.max(1, offer.maxExtra) : 1;
  const extra = Math.min(Math.max(1, qty), max);

  // The server prices every choice (spec §4: the service's cycle, One Time as monthly).
  const offeredId = offer?.serviceId;
  useEffect(() => {
    if (offeredId === undefined) return;
    let live = true;
    setQuoteError(null);
    api.quote({ serviceId: offeredId, extraQuantity: extra, currency }).then(
      (q) => live && setQuote(q),
      (e: unknown) => {
        if (!live) return;
        if (isApiError(e) && e.code === 'malformed') c.fail(e);
        setQuote(null);
        setQuoteError(e);
      },
    );
    return () => {
      live = false;
    };
  }, [offeredId, extra, currency, api, c]);

  if (
    offers.status === 'error' &&
    isApiError(offers.error) &&
    (offers.error.code === 'unauthorized' || offers.error.code === 'not_found')
  ) {
    return <SignIn view="upsell" lead={a.upsellSignInLead} notice={a.sessionExpired} />;
  }
  if (offers.status === 'loading' && !offers.data)
    return <ScreenSkeleton label={a.loadingOffers} layout="narrow" cards={1} testId="upsell-loading" />;
  if (offers.status === 'error' && !offers.data) {
    return (
      <Centered icon="alert" tone="error" title={t.errorTitle}>
        <p className="sc-lead" role="alert">
          {errText(offers.error)}
        </p>
        <button type="button" className="sc-btn sc-btn-primary" onClick={offers.reload}>
          {t.tryAgain}
        </button>
      </Centered>
    );
  }
  if (!offer) {
    return (
      <Centered icon={<Icon name="sparkle" />} title={a.upsellTitle} testId="upsell-empty">
        <p className="sc-lead">{a.noOffers}</p>
        <div className="sc-actions">
          <button type="button" className="sc-btn sc-btn-primary" onClick={() => c.navigate('', { view: 'services' })}>
            {a.manage}
          </button>
          <HomeLink className="sc-btn sc-btn-ghost">{t.backToPlans}</HomeLink>
        </div>
      </Centered>
    );
  }

  const shown = quote && quote.serviceId === offer.serviceId && quote.extraQuantity === extra ? quote : null;
  const cycleText = (t.perCycle as Record<string, string>)[offer.pricingCycle as Cycle] ?? offer.pricingCycle;

  async function pay() {
    if (!offer || !shown || paying) return;
    setPaying(true);
    setPayError(null);
    try {
      const o = await api.upsellOrder({
        serviceId: offer.serviceId,
        extraQuantity: extra,
        currency,
        gateway: gateways.gateway ?? '',
        returnUrl: returnUrl(c.place(), 'waiting', offer.serviceId),
      });
      c.update((p) => ({
        ...p,
        order: { orderid: o.orderId, invoiceid: o.invoiceId, serviceid: [o.serviceId], fraud: o.fraud },
        waiting: { lastDate: null, duration: 0 },
      }));
      c.emit('streamcart:order-created', { orderId: o.orderId, invoiceId: o.invoiceId, status: o.status, total: o.total });
      if (o.paymentUrl && o.status === 'pending' && !o.fraud) {
        const paymentUrl = c.client.resolve(o.paymentUrl);
        const deadline = o.paymentDeadline || new Date(Date.now() + 86_400_000).toISOString();
        c.update((p) => ({ ...p, payment: { gateway: gateways.gateway ?? '', url: paymentUrl, deadline } }));
        c.emit('streamcart:payment-started', { orderId: o.orderId, gateway: gateways.gateway ?? '', paymentUrl });
        browser.assign(paymentUrl);
        return;
      }
      c.navigate('waiting', { order: o.orderId, upsell: o.serviceId });
    } catch (e) {
      if (isApiError(e) && e.code === 'malformed') c.fail(e);
      setPayError(errText(e));
      setPaying(false);
    }
  }

  return (
    <div className="sc-page sc-narrow" data-testid="upsell-view">
      <header className="sc-section-head">
        <h2 className="sc-title" ref={heading} tabIndex={-1}>
          {a.upsellTitle}
        </h2>
        <p className="sc-lead">{a.upsellLead}</p>
      </header>

      <section className="sc-card" aria-labelledby="sc-upsell-service">
        <h3 className="sc-card-title" id="sc-upsell-service">
          {a.service}
        </h3>
        <div className="sc-gateways" role="radiogroup" aria-labelledby="sc-upsell-service">
          {list.map((o) => (
            <label
              key={o.serviceId}
              className={`sc-gateway${o.serviceId === offer.serviceId ? ' is-selected' : ''}`}
              data-testid="upsell-service"
              data-service-id={o.serviceId}
            >
              <input
                type="radio"
                name="sc-upsell-service"
                value={o.serviceId}
                checked={o.serviceId === offer.serviceId}
                onChange={() => {
                  setServiceId(o.serviceId);
                  setQty(1);
                }}
              />
              <span>
                {o.name} · {a.connectionsNow(o.maxConnections)}
              </span>
            </label>
          ))}
        </div>
      </section>

      <section className="sc-card" aria-labelledby="sc-upsell-qty-label">
        <div className="sc-field">
          <label className="sc-label" id="sc-upsell-qty-label" htmlFor="sc-upsell-qty">
            {a.extraConnections}
          </label>
          <p className="sc-range-value" aria-hidden="true" data-testid="upsell-quantity">
            +{extra}
          </p>
          <input
            id="sc-upsell-qty"
            className="sc-range"
            type="range"
            min={1}
            max={max}
            step={1}
            value={extra}
            disabled={max <= 1}
            data-testid="upsell-slider"
            aria-valuetext={a.connectionsAfter(offer.maxConnections + extra)}
            onChange={(e) => setQty(Number(e.target.value))}
          />
          <p className="sc-hint">
            {a.perConnection(money(offer.unitPrice), cycleText)} · {a.connectionsAfter(offer.maxConnections + extra)}
          </p>
        </div>
      </section>

      <GatewayChoice {...gateways} title={t.paymentMethod} />

      <section className="sc-card sc-summary sc-upsell-summary" aria-label={t.summary}>
        {shown?.tax && shown.net && (
          // A taxed shop: the net and the VAT (rate, country) in the total, as at the checkout.
          <>
            <div className="sc-line" data-testid="upsell-net">
              <span>{t.net}</span>
              <span>{money(shown.net)}</span>
            </div>
            <div className="sc-line" data-testid="upsell-tax">
              <span>{t.taxLine(formatDecimal(Number(shown.tax.rate), locale), shown.tax.country)}</span>
              <span>{money({ amount: shown.tax.amount, currency: shown.tax.currency })}</span>
            </div>
          </>
        )}
        <div className="sc-line sc-total">
          <span>{t.total}</span>
          <strong data-testid="upsell-total" aria-live="polite">
            {shown ? money(shown.total) : '…'}
          </strong>
        </div>
        {shown && (
          <p className="sc-hint" data-testid="upsell-after">
            {a.connectionsAfter(shown.maxConnections)}
          </p>
        )}
        {quoteError !== null && (
          <p className="sc-alert" role="alert">
            <Icon name="alert" />
            {errText(quoteError)}
          </p>
        )}
        {payError && (
          <p className="sc-alert" role="alert" data-testid="upsell-error">
            <Icon name="alert" />
            {payError}
          </p>
        )}
        <button
          type="button"
          className="sc-btn sc-btn-primary sc-pay"
          data-testid="pay-button"
          disabled={!shown && !paying}
          aria-disabled={paying || undefined}
          aria-busy={paying || undefined}
          onClick={() => void pay()}
        >
          {paying ? t.processing : shown ? t.pay(money(shown.total)) : t.updatingPrice}
        </button>
      </section>
    </div>
  );
}

/** /success?upsell=<serviceId>: the paid extra connections, read back from the service. */
export function UpsellSuccess() {
  const c = useController();
  const { a, t } = useAfterSaleTexts();
  const errText = useAfterSaleError();
  const serviceId = useCheckout((s) => s.route.query.upsell ?? '');
  const service = useResource(`service:${serviceId}`, () => getService(c.client, serviceId));
  if (service.status === 'loading') return <ScreenSkeleton label={a.loadingService} layout="centered" testId="upsell-success-loading" />;
  if (service.status === 'error') {
    return (
      <Centered icon="alert" tone="error" title={t.errorTitle}>
        <p className="sc-lead" role="alert">
          {errText(service.error)}
        </p>
        <HomeLink>{t.backHome}</HomeLink>
      </Centered>
    );
  }
  const s = service.data;
  return (
    <Centered icon="check" tone="ok" title={a.upsellDoneTitle} testId="upsell-success">
      <p className="sc-lead">{a.upsellDoneLead(s.maxConnections)}</p>
      <p className="sc-muted">
        {s.name} · {t.maxConnections}: <strong data-testid="upsell-connections">{s.maxConnections}</strong>
      </p>
      <div className="sc-actions">
        <button
          type="button"
          className="sc-btn sc-btn-primary"
          data-testid="manage-services"
          onClick={() => c.navigate('', { view: 'services' })}
        >
          {a.manage}
        </button>
        <HomeLink className="sc-btn sc-btn-ghost">{t.backHome}</HomeLink>
      </div>
    </Centered>
  );
}
