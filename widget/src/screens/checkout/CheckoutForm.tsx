// The checkout form below the plan cards (options, details, payment method, summary). Its own
// chunk: the plan page renders it once the cards have painted, or when the buyer acts first.
import { useEffect, useRef, useState } from 'react';
import { isApiError, type QuoteBody } from '../../api/client';
import type { Cycle, Money, Product } from '../../api/schemas';
import { catalogKey } from '../../core/catalog';
import { extraConnectionsFor, findOption, maxConnections, optionPrice } from '../../core/options';
import { placeOrder, type Group } from '../../core/order';
import { useCheckout, useController, useResource } from '../../ui/context';
import { useTexts } from '../../ui/texts';
import { EmailField, isValidEmail } from '../../ui/EmailField';
import { Summary } from '../../ui/Summary';
import { PromoField, usePromoValue, type PromoMessage } from './PromoField';
import { BillingCountry, countryDiffers } from './BillingCountry';
import { useQuote } from './useQuote';
import { PayBar } from './PayBar';
import { useSheet } from '../../element/styles';
import componentsCss from '../../ui/components.css?inline';
import checkoutCss from './checkout.css?inline';
import { getPromotion } from '../../api/orders';
import { perMonth, savingOf, useStoreTerms } from '../../ui/terms';

export interface CheckoutFormProps {
  group: Group;
  product: Product;
  cycle: Cycle | null;
  /** Counts Enter presses on a plan card: each one (and one made before the form was there) takes the focus to the billing cycle. */
  continued: number;
}

export function CheckoutForm({ group, product, cycle, continued }: CheckoutFormProps) {
  useSheet(componentsCss);
  useSheet(checkoutCss);
  const c = useController();
  const { t, locale, money } = useTexts('checkout');
  const promoValue = usePromoValue();
  const currency = useCheckout((s) => s.currency);
  const draft = useCheckout((s) => s.draft);
  const attempt = useCheckout((s) => s.attempt);
  const emailRef = useRef<HTMLInputElement>(null);
  const cycleRef = useRef<HTMLSelectElement>(null);
  const [forced, setForced] = useState(0);
  const [promoMessage, setPromoMessage] = useState<PromoMessage>(null);
  const [promoChecking, setPromoChecking] = useState(false);
  // The catalog may ask for a ticked box accepting the terms (GET /storefront's consent.checkbox).
  const askConsent = !!useStoreTerms()?.consent.checkbox;
  const [consented, setConsented] = useState(false);
  const [consentMissing, setConsentMissing] = useState(false);
  // The billing country of a shop that charges tax: '' until the buyer picks one (the quote's is shown).
  const [billingCountry, setBillingCountry] = useState('');
  const [countryConfirmed, setCountryConfirmed] = useState(false);
  const [countryMissing, setCountryMissing] = useState<'country' | 'confirm' | null>(null);

  const gateways = useResource(catalogKey.gateways(locale), () => c.cached(catalogKey.gateways(locale), () => c.client.gateways(locale)));
  const currencies = useResource(catalogKey.currencies, () => c.cached(catalogKey.currencies, () => c.client.currencies()));

  const extraOption = findOption(product, 'extra');
  const proxyOption = findOption(product, 'proxy');
  const extra = extraOption ? extraConnectionsFor(draft.extra, draft.connections) : 0;
  const defaultCurrency = currencies.data?.default ?? 'EUR';

  const body: QuoteBody | null = cycle
    ? {
        pid: product.pid,
        billingCycle: cycle,
        currency,
        extraConnections: extra,
        proxyProtection: !!proxyOption && draft.proxy,
        ...(draft.promo ? { promoCode: draft.promo.code } : {}),
        ...(billingCountry ? { billingCountry } : {}),
      }
    : null;
  const q = useQuote(body);
  // A catalog with a tax block: the quote names the country taxed and the address's.
  const tax = q.quote?.tax ?? null;
  const country = billingCountry || tax?.country || '';
  const shownQuote = attempt.status === 'priceChanged' ? attempt.quote : q.quote;
  // Until the quote for this choice is there, the plan's own price says whether it is free: the
  // payment methods of a free trial never show up only to go away under the buyer's keyboard focus.
  const free =
    shownQuote && (attempt.status === 'priceChanged' || q.forKey === q.key)
      ? shownQuote.total.amount === 0
      : !!cycle && (product.trial || product.pricing[cycle]?.amount === 0) && !extra && !(proxyOption && draft.proxy);

  // A new choice makes an old price-change prompt or order error moot.
  const lastKey = useRef(q.key);
  useEffect(() => {
    if (lastKey.current === q.key) return;
    lastKey.current = q.key;
    if (attempt.status === 'priceChanged' || attempt.status === 'failed') c.setAttempt({ status: 'idle' });
  }, [q.key, attempt.status, c]);

  // Remember the price and total shown (spec §3 products.price / products.totalPrice).
  useEffect(() => {
    if (!q.quote) return;
    const price = q.quote.lines.find((l) => l.key === 'plan')?.amount ?? q.quote.subtotal ?? q.quote.total;
    const cur = c.getState().persisted.products;
    if (
      cur.price?.amount === price.amount &&
      cur.price.currency === price.currency &&
      cur.totalPrice?.amount === q.quote.total.amount &&
      cur.totalPrice.currency === q.quote.total.currency
    )
      return;
    c.update((p) => ({ ...p, products: { ...p.products, price, totalPrice: q.quote!.total } }));
  }, [q.quote, c]);

  // A promo the server refuses for this choice is dropped, with its message.
  useEffect(() => {
    if (isApiError(q.error) && (q.error.code === 'not_applicable' || (q.error.code === 'not_found' && draft.promo))) {
      setPromoMessage({ kind: 'error', text: promoError(q.error) });
      c.setDraft({ promo: null });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q.error]);

  function promoError(err: unknown): string {
    if (!isApiError(err)) return t.errors.internal;
    if (err.code === 'not_applicable') return t.errors.not_applicable;
    // Spec §5: otherwise the server's message. It is English, so other locales use the translation.
    const translated = (t.errors as Record<string, string>)[err.code];
    if (locale.startsWith('en') && err.message) return err.message;
    return translated ?? err.message;
  }

  async function applyPromo(code = draft.promoInput, pid = product.pid) {
    const value = code.trim().toUpperCase();
    if (!value || !pid) return;
    setPromoChecking(true);
    try {
      const promo = await getPromotion(c.client, value, pid);
      // Spec §4: the discount is set only when the code applies to the chosen product.
      if (promo.appliesTo.length && !promo.appliesTo.includes(pid)) {
        c.setDraft({ promo: null });
        setPromoMessage({ kind: 'error', text: t.errors.not_applicable });
      } else {
        c.setDraft({ promo, promoInput: promo.code.toUpperCase() });
        setPromoMessage({ kind: 'applied', text: t.promoApplied(promo.code.toUpperCase(), promoValue(promo, defaultCurrency)) });
      }
    } catch (e) {
      if (isApiError(e) && e.code === 'malformed') c.fail(e);
      c.setDraft({ promo: null });
      setPromoMessage({ kind: 'error', text: promoError(e) });
    } finally {
      setPromoChecking(false);
    }
  }

  // A code from the landing URL or the promocode attribute is applied once a plan is known; an
  // applied code is checked again when the plan changes.
  const promoFor = useRef<number | null>(null);
  useEffect(() => {
    if (promoChecking) return;
    const code = draft.promo?.code ?? (promoFor.current === null ? draft.promoInput : '');
    if (promoFor.current === product.pid) return;
    promoFor.current = product.pid;
    if (code) void applyPromo(code, product.pid);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [product.pid]);

  // Keep the promo message in the current language.
  useEffect(() => {
    if (draft.promo && promoMessage?.kind === 'applied') {
      setPromoMessage({ kind: 'applied', text: t.promoApplied(draft.promo.code.toUpperCase(), promoValue(draft.promo, defaultCurrency)) });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locale]);

  const gatewayList = gateways.data?.gateways ?? [];
  const gateway =
    draft.gateway && gatewayList.some((g) => g.module === draft.gateway)
      ? draft.gateway
      : gateways.data?.default || gatewayList[0]?.module || null;

  // Automatic renewal needs a card kept by Stripe (the only gateway that charges off-session) and a
  // plan that renews: offered there only, unticked until the buyer agrees.
  const cardRenewal = gateway === 'stripe' && !free && !!cycle && cycle !== 'onetime' && !product.trial && group === 'plan';

  // An extra's price says per what: "€5.00 per 3 months".
  const per = (m: Money | null | undefined) => {
    const shown = money(m ?? { amount: 0, currency });
    return cycle ? t.pricePer(shown, t.perCycle[cycle]) : shown;
  };

  const quoteReady = !!q.quote && q.forKey === q.key && !q.loading;
  // A plan shown temporarily unavailable (the panel's credits) cannot be bought: the server would answer 409 out_of_stock.
  const canPay = quoteReady && !!body && (free || !!gateway) && product.available;

  function pay(expected = q.quote?.total) {
    const email = draft.email.trim();
    if (!email || !isValidEmail(email)) {
      setForced((n) => n + 1);
      emailRef.current?.focus();
      return;
    }
    if (!body || !expected) return;
    if (tax && !country) {
      setCountryMissing('country');
      c.host.shadowRoot?.querySelector<HTMLSelectElement>('[data-testid="billing-country"]')?.focus();
      return;
    }
    const confirmCountry = !!tax && countryDiffers(tax, country);
    if (confirmCountry && !countryConfirmed) {
      setCountryMissing('confirm');
      c.host.shadowRoot?.querySelector<HTMLInputElement>('[data-testid="confirm-country"]')?.focus();
      return;
    }
    if (askConsent && !consented) {
      setConsentMissing(true);
      c.host.shadowRoot?.querySelector<HTMLInputElement>('[data-testid="consent-checkbox"]')?.focus();
      return;
    }
    // Spec: a free trial has no payment step; the API still records which gateway would have been used.
    const gw = gateway ?? gateways.data?.default ?? '';
    void placeOrder(c, {
      body: confirmCountry ? { ...body, confirmCountry } : body,
      gateway: gw,
      expectedTotal: expected,
      email,
      subscribe: draft.subscribe,
      group,
      renewWithCard: cardRenewal && draft.renewWithCard,
    });
  }

  // Enter on a plan card goes on to the form (also when pressed before the form was there).
  useEffect(() => {
    if (continued) cycleRef.current?.focus();
  }, [continued]);

  return (
    <div className="sc-checkout">
      <div className="sc-form">
        <section className="sc-card" aria-labelledby="sc-options-title">
          <h2 className="sc-card-title" id="sc-options-title">
            {t.customize}
          </h2>
          <div className="sc-field">
            <label className="sc-label" htmlFor="sc-cycle">
              {t.billingCycle}
            </label>
            <select
              ref={cycleRef}
              id="sc-cycle"
              className="sc-input sc-select"
              value={cycle ?? ''}
              data-testid="billing-cycle"
              onChange={(e) => c.select({ pid: product.pid, cycle: e.target.value as Cycle }, { emit: true })}
            >
              {product.cycles.map((cy) => {
                // Each cycle's total, its price per month, and its saving against paying monthly.
                const price = product.pricing[cy];
                const month = price && price.amount > 0 ? perMonth(price, cy) : null;
                const save = savingOf(product, cy);
                return (
                  <option key={cy} value={cy}>
                    {t.cycles[cy]}
                    {price ? ` · ${price.amount === 0 ? t.free : money(price)}` : ''}
                    {month ? ` (${t.perMonth(money(month))})` : ''}
                    {save ? ` · ${t.saveShort(save.pct)}` : ''}
                  </option>
                );
              })}
            </select>
          </div>

          {extraOption && (
            <div className="sc-option">
              <label className="sc-switch">
                <input
                  type="checkbox"
                  role="switch"
                  checked={draft.extra}
                  data-testid="extra-connections-toggle"
                  aria-describedby="sc-extra-hint"
                  onChange={(e) =>
                    // Switching on starts at 2 connections (1 included + 1 extra) so the switch
                    // always changes the order; the count can still go down to 1.
                    c.setDraft({
                      extra: e.target.checked,
                      connections: e.target.checked ? Math.max(2, draft.connections) : draft.connections,
                    })
                  }
                />
                <span className="sc-switch-label">{t.extraConnections}</span>
              </label>
              <p className="sc-hint" id="sc-extra-hint">
                {t.extraConnectionsHint(per(optionPrice(extraOption, cycle)))}
              </p>
              {draft.extra && (
                <ConnectionCount
                  value={draft.connections}
                  max={maxConnections(extraOption)}
                  onChange={(n) => c.setDraft({ connections: n })}
                />
              )}
            </div>
          )}

          {proxyOption && (
            <div className="sc-option">
              <label className="sc-switch">
                <input
                  type="checkbox"
                  role="switch"
                  checked={draft.proxy}
                  data-testid="proxy-protection-toggle"
                  aria-describedby="sc-proxy-hint"
                  onChange={(e) => c.setDraft({ proxy: e.target.checked })}
                />
                <span className="sc-switch-label">{t.proxyProtection}</span>
              </label>
              <p className="sc-hint" id="sc-proxy-hint">
                {t.proxyProtectionHint(per(optionPrice(proxyOption, cycle)))}
              </p>
            </div>
          )}
        </section>

        <section className="sc-card" aria-labelledby="sc-details-title">
          <h2 className="sc-card-title" id="sc-details-title">
            {t.yourDetails}
          </h2>
          <EmailField ref={emailRef} value={draft.email} forced={forced} onChange={(email) => c.setDraft({ email })} />
          {tax && (
            <BillingCountry
              tax={tax}
              value={billingCountry}
              confirmed={countryConfirmed}
              missing={countryMissing}
              onChange={(code) => {
                setBillingCountry(code);
                setCountryConfirmed(false);
                setCountryMissing(null);
              }}
              onConfirm={(v) => {
                setCountryConfirmed(v);
                if (v) setCountryMissing(null);
              }}
            />
          )}
          <PromoField
            value={draft.promoInput}
            applied={draft.promo}
            checking={promoChecking}
            message={promoMessage}
            onChange={(promoInput) => {
              c.setDraft({ promoInput });
              if (promoMessage?.kind === 'error') setPromoMessage(null);
            }}
            onApply={() => void applyPromo()}
            onRemove={() => {
              c.setDraft({ promo: null, promoInput: '' });
              setPromoMessage(null);
            }}
          />
        </section>

        {!free && gatewayList.length > 0 && (
          <section className="sc-card" aria-labelledby="sc-gateway-title">
            <h2 className="sc-card-title" id="sc-gateway-title">
              {t.paymentMethod}
            </h2>
            <div className="sc-gateways" role="radiogroup" aria-labelledby="sc-gateway-title">
              {gatewayList.map((g) => (
                <label
                  key={g.module}
                  className={`sc-gateway${g.module === gateway ? ' is-selected' : ''}`}
                  data-testid="gateway-option"
                  data-module={g.module}
                >
                  <input
                    type="radio"
                    name="sc-gateway"
                    value={g.module}
                    checked={g.module === gateway}
                    onChange={() => c.setDraft({ gateway: g.module })}
                  />
                  <span>{g.displayName}</span>
                </label>
              ))}
            </div>
            {cardRenewal && cycle && (
              <div className="sc-option">
                <label className="sc-check">
                  <input
                    type="checkbox"
                    checked={draft.renewWithCard}
                    data-testid="renew-with-card"
                    aria-describedby="sc-renew-consent"
                    onChange={(e) => c.setDraft({ renewWithCard: e.target.checked })}
                  />
                  <span>{t.renewWithCard}</span>
                </label>
                <p className="sc-hint" id="sc-renew-consent" data-testid="renew-consent">
                  {t.renewWithCardConsent(t.renewEvery[cycle])}
                </p>
              </div>
            )}
          </section>
        )}
      </div>

      <Summary
        product={product}
        cycle={cycle}
        extra={extra}
        quote={shownQuote}
        quoteLoading={q.loading}
        quoteError={q.error}
        currencies={currencies.data}
        attempt={attempt}
        subscribe={draft.subscribe}
        onSubscribe={(subscribe) => c.setDraft({ subscribe })}
        canPay={canPay}
        onPay={() => pay()}
        onConfirmPrice={() => attempt.status === 'priceChanged' && pay(attempt.quote.total)}
        consent={
          askConsent
            ? {
                checked: consented,
                missing: consentMissing && !consented,
                onChange: (v) => {
                  setConsented(v);
                  if (v) setConsentMissing(false);
                },
              }
            : null
        }
      />
      <PayBar
        total={shownQuote?.total ?? null}
        free={free}
        off={!canPay || attempt.status === 'creating' || attempt.status === 'redirecting' || attempt.status === 'priceChanged'}
        onPay={() => pay()}
      />
    </div>
  );
}

function ConnectionCount({ value, max, onChange }: { value: number; max: number; onChange: (n: number) => void }) {
  const { t } = useTexts('checkout');
  const clamp = (n: number) => Math.min(max, Math.max(1, Math.floor(n)));
  const [text, setText] = useState(String(value));
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => setText(String(value)), [value]);
  // A step button that reaches its end is disabled, which would drop focus: hand it to the field.
  const step = (n: number) => {
    const next = clamp(n);
    onChange(next);
    if (next <= 1 || next >= max) inputRef.current?.focus();
  };
  return (
    <div className="sc-count">
      <label className="sc-label" htmlFor="sc-connections">
        {t.connections}
      </label>
      <div className="sc-stepper">
        <button type="button" className="sc-step" aria-label={t.fewerConnections} disabled={value <= 1} onClick={() => step(value - 1)}>
          −
        </button>
        <input
          ref={inputRef}
          id="sc-connections"
          className="sc-input sc-count-input"
          type="number"
          inputMode="numeric"
          min={1}
          max={max}
          step={1}
          value={text}
          data-testid="extra-connections-count"
          aria-describedby="sc-connections-hint"
          onChange={(e) => {
            setText(e.target.value);
            const n = Number(e.target.value);
            if (e.target.value !== '' && Number.isFinite(n)) onChange(clamp(n));
          }}
          onBlur={() => setText(String(value))}
        />
        <button type="button" className="sc-step" aria-label={t.moreConnections} disabled={value >= max} onClick={() => step(value + 1)}>
          +
        </button>
      </div>
      <p className="sc-hint" id="sc-connections-hint">
        {t.connectionsHint(Math.max(0, value - 1))}
      </p>
    </div>
  );
}
