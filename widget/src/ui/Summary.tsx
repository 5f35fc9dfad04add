import { useState } from 'react';
import type { CurrencyList, Cycle, Money, Product, Quote } from '../api/schemas';
import { formatDecimal, toDefaultCurrency } from '../i18n/amounts';
import type { Attempt } from '../core/state';
import { useErrorText, useTexts } from './texts';
import { consentParts, renewalOf, TermsLink, useRenewalText, type Tax } from './terms';
import { Icon } from './icons';
import { useSheet } from '../element/styles';
import componentsCss from './components.css?inline';

/** A quote with, from a catalog with a tax block, its net and the tax in its total. */
export type SummaryQuote = Quote & { net?: Money; tax?: Tax | null };

interface Props {
  product: Product | null;
  cycle: Cycle | null;
  extra: number;
  quote: SummaryQuote | null;
  quoteLoading: boolean;
  quoteError: unknown;
  currencies: CurrencyList | undefined;
  attempt: Attempt;
  subscribe: boolean;
  onSubscribe: (v: boolean) => void;
  canPay: boolean;
  onPay: () => void;
  onConfirmPrice: () => void;
  /** The catalog asks for a ticked box to accept the terms: its state, and whether Pay was pressed without it. */
  consent?: { checked: boolean; missing: boolean; onChange: (v: boolean) => void } | null;
}

export function Summary(props: Props) {
  useSheet(componentsCss);
  const { product, cycle, extra, quote, quoteLoading, quoteError, currencies, attempt } = props;
  const { t, locale, money } = useTexts('checkout');
  const errorText = useErrorText(t.errors);
  const busy = attempt.status === 'creating' || attempt.status === 'redirecting';
  const free = !!quote && quote.total.amount === 0;
  const off = !props.canPay || busy || attempt.status === 'priceChanged';
  const [payFocused, setPayFocused] = useState(false);
  const renewalText = useRenewalText();
  // What renews is the quote's (the server's); before a quote, the plan's own rule.
  const renewal = product ? renewalOf(product, cycle, quote) : null;

  function label(line: Quote['lines'][number]): string {
    switch (line.key) {
      case 'plan':
        // A free trial is no "one-time payment": its name alone.
        return product ? (cycle && !product.trial ? `${product.name} · ${t.cycles[cycle]}` : product.name) : line.label;
      case 'extraConnections':
        // The count the quote was made for (the choice may have moved on while a new one loads).
        return t.lineExtraConnections(quote?.extraConnections || extra || 1);
      case 'proxyProtection':
        return t.lineProxy;
      default:
        return line.label;
    }
  }

  let conversion: string | null = null;
  if (quote && currencies && quote.total.currency !== currencies.default && quote.total.amount > 0) {
    const rate = currencies.currencies.find((cur) => cur.code === quote.total.currency)?.rate;
    const approx = rate ? toDefaultCurrency(quote.total, rate, currencies.default) : null;
    if (approx && rate) {
      conversion = `${t.approx(money(approx))} · ${t.rate(currencies.default, formatDecimal(Number(rate), locale), quote.total.currency)}`;
    }
  }

  return (
    <aside className="sc-card sc-summary" part="summary" aria-labelledby="sc-summary-title">
      <h2 className="sc-card-title" id="sc-summary-title">
        {t.summary}
      </h2>
      <div className={`sc-lines${quoteLoading ? ' is-loading' : ''}`} aria-busy={quoteLoading || undefined}>
        {quote ? (
          <dl>
            {quote.lines.map((line, i) => (
              <div className="sc-line" key={`${line.key}-${i}`}>
                <dt>{label(line)}</dt>
                <dd>{money(line.amount)}</dd>
              </div>
            ))}
            {quote.discount && (
              <>
                {quote.subtotal && (
                  <div className="sc-line sc-line-sub">
                    <dt>{t.subtotal}</dt>
                    <dd>{money(quote.subtotal)}</dd>
                  </div>
                )}
                <div className="sc-line sc-line-discount">
                  <dt>{t.discount(quote.discount.code)}</dt>
                  <dd>−{money(quote.discount.amount)}</dd>
                </div>
              </>
            )}
            {/* Nothing to pay (a free trial), no tax to set out: no lines of zeros. */}
            {quote.tax && quote.net && !free && (
              <>
                <div className="sc-line sc-line-sub" data-testid="price-net">
                  <dt>{t.net}</dt>
                  <dd>{money(quote.net)}</dd>
                </div>
                <div className="sc-line sc-line-sub" data-testid="price-tax">
                  <dt>{t.taxLine(formatDecimal(Number(quote.tax.rate), locale), quote.tax.country)}</dt>
                  <dd>{money({ amount: quote.tax.amount, currency: quote.tax.currency })}</dd>
                </div>
              </>
            )}
          </dl>
        ) : (
          !quoteError && <p className="sc-muted">{t.updatingPrice}</p>
        )}
      </div>
      <div className="sc-total">
        <span>{t.total}</span>
        <strong data-testid="price-total" aria-live="polite">
          {quote ? money(quote.total) : '—'}
        </strong>
      </div>
      {quote && renewal && (
        <p className="sc-renewal" data-testid="renewal-terms">
          {renewal.kind === 'renews' && `${t.dueToday}: ${money(quote.total)}. `}
          {renewalText(renewal)}
        </p>
      )}
      {conversion && <p className="sc-conversion">{conversion}</p>}
      {quoteLoading && quote && (
        <p className="sc-muted sc-small" role="status">
          {t.updatingPrice}
        </p>
      )}
      {quoteError !== null && quoteError !== undefined && !quoteLoading && (
        <p className="sc-alert" role="alert">
          <Icon name="alert" />
          {errorText(quoteError)}
        </p>
      )}
      {free && (
        <p className="sc-trial-note">
          <Icon name="sparkle" />
          <span>
            <strong>{t.noCreditCard}</strong> {t.trialNote}
          </span>
        </p>
      )}
      {attempt.status === 'priceChanged' && (
        <div className="sc-alert sc-alert-warn" role="alert">
          <p>{t.priceChanged(money(attempt.quote.total))}</p>
          <button
            type="button"
            className="sc-btn sc-btn-secondary"
            onClick={props.onConfirmPrice}
            data-testid="confirm-price"
            data-step-focus
          >
            {t.confirmPrice}
          </button>
        </div>
      )}
      {attempt.status === 'failed' && (
        <p className="sc-alert" role="alert" tabIndex={-1} data-step-focus>
          <Icon name="alert" />
          {(t.errors as Record<string, string>)[attempt.code] ?? (attempt.message || t.errors.internal)}
        </p>
      )}
      <label className="sc-check">
        <input type="checkbox" checked={props.subscribe} onChange={(e) => props.onSubscribe(e.target.checked)} />
        <span>{t.subscribe}</span>
      </label>
      {renewal &&
        (props.consent ? (
          <>
            <label className="sc-check sc-consent">
              <input
                type="checkbox"
                checked={props.consent.checked}
                data-testid="consent-checkbox"
                aria-invalid={props.consent.missing || undefined}
                aria-describedby={props.consent.missing ? 'sc-consent-error' : undefined}
                onChange={(e) => props.consent?.onChange(e.target.checked)}
              />
              <span>{t.consentCheck(<TermsLink key="terms" />)}</span>
            </label>
            {props.consent.missing && (
              <p className="sc-field-error" id="sc-consent-error" role="alert" data-testid="consent-error">
                {t.consentRequired}
              </p>
            )}
          </>
        ) : null)}
      <button
        type="button"
        className="sc-btn sc-btn-primary sc-pay"
        part="pay-button"
        data-testid="pay-button"
        // A new quote (a code from the page applied late, another currency) may come while the
        // buyer is on the button: it stays focusable, aria-disabled, as a disabled one drops the focus.
        disabled={off && !payFocused}
        aria-disabled={off || undefined}
        aria-busy={busy || undefined}
        onFocus={() => setPayFocused(true)}
        onBlur={() => setPayFocused(false)}
        onClick={() => {
          if (!off) props.onPay();
        }}
      >
        {busy ? (
          <>
            <Icon name="spinner" className="sc-spin" /> {t.processing}
          </>
        ) : free ? (
          t.startTrial
        ) : quote ? (
          <>
            <Icon name="lock" /> {t.pay(money(quote.total))}
          </>
        ) : (
          t.pay('…')
        )}
      </button>
      {renewal && (
        <p className="sc-consent" data-testid="consent-line">
          {consentParts(renewal, <TermsLink key="terms" />, t, money)}
        </p>
      )}
      <p className="sc-secure">{free ? t.noCreditCard : t.secure}</p>
    </aside>
  );
}
