import { useState } from 'react';
import { type Order, downloadInvoice } from '../../api/orders';
import { catalogKey } from '../../core/catalog';
import { formatDecimal } from '../../i18n/amounts';
import { useController, useResource } from '../../ui/context';
import { useErrorText, useTexts } from '../../ui/texts';
import { Icon } from '../../ui/icons';
import { orderLineText } from '../../ui/orderLines';
import { isCycle } from '../../api/schemas';

/**
 * What was bought and paid: the quote's lines and discount, the total, the payment method, the
 * invoice number and its PDF. `gateway` is the module the buyer paid with in this browser (the
 * order answer does not name it); its display name comes from the gateway list.
 */
export function Receipt({ order: o, gateway }: { order: Order; gateway: string }) {
  const c = useController();
  const { t, locale, money, date } = useTexts('order');
  const errorText = useErrorText();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const gateways = useResource(gateway ? catalogKey.gateways(locale) : null, () =>
    c.cached(catalogKey.gateways(locale), () => c.client.gateways(locale)),
  );
  const method = gateway && gateways.status === 'ok' ? (gateways.data.gateways.find((g) => g.module === gateway)?.displayName ?? '') : '';
  const q = o.quote;
  // What renews, in the checkout's own sentence and cycle words ("Then €60.99 every 3 months until
  // you cancel."): one source of the wording before and after paying (the order table's are the
  // checkout table's).
  const r = o.recurring;
  const renews = r && isCycle(r.billingCycle) ? t.thenEvery(money(r), t.renewEvery[r.billingCycle]) : '';

  async function download() {
    setDownloading(true);
    setDownloadError(null);
    try {
      await downloadInvoice(c.client, o, c.host.shadowRoot);
    } catch (e) {
      setDownloadError(e);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <section className="sc-card sc-receipt" part="receipt" data-testid="receipt" aria-labelledby="sc-receipt-title">
      <h3 className="sc-card-title" id="sc-receipt-title">
        {t.receiptTitle}
      </h3>
      {q && (
        <dl className="sc-lines" data-testid="receipt-lines">
          {q.lines.map((line, i) => (
            <div className="sc-line" key={`${line.key}-${i}`}>
              <dt>{orderLineText(q, line, t, date)}</dt>
              <dd>{money(line.amount)}</dd>
            </div>
          ))}
          {q.discount && (
            <div className="sc-line sc-line-discount">
              <dt>{t.receiptDiscount(q.discount.code)}</dt>
              <dd>−{money(q.discount.amount)}</dd>
            </div>
          )}
        </dl>
      )}
      {q?.tax && q.net && o.total.amount > 0 && (
        // A taxed order (the catalog's tax block): its net and its VAT at the buyer's country's rate.
        <dl className="sc-lines sc-receipt-tax" data-testid="receipt-tax-lines">
          <div className="sc-line sc-line-sub" data-testid="receipt-net">
            <dt>{t.receiptNet}</dt>
            <dd>{money(q.net)}</dd>
          </div>
          <div className="sc-line sc-line-sub" data-testid="receipt-tax">
            <dt>{t.receiptTax(formatDecimal(Number(q.tax.rate), locale), q.tax.country)}</dt>
            <dd>{money({ amount: q.tax.amount, currency: q.tax.currency })}</dd>
          </div>
        </dl>
      )}
      <div className="sc-total" data-testid="receipt-total">
        <span>{t.receiptTotal}</span>
        <strong>{money(o.total)}</strong>
      </div>
      {/* A refunded order renews no more. */}
      {renews && o.status !== 'refunded' && (
        <p className="sc-muted sc-small" data-testid="receipt-renews">
          {renews}
        </p>
      )}
      <dl className="sc-facts">
        {o.createdAt && (
          <div>
            <dt>{t.orderDate}</dt>
            <dd>{date(o.createdAt)}</dd>
          </div>
        )}
        {method && (
          <div>
            <dt>{t.paidWith}</dt>
            <dd data-testid="receipt-method">{method}</dd>
          </div>
        )}
        {o.invoiceNumber && (
          <div>
            <dt>{t.invoiceNumber}</dt>
            <dd data-testid="receipt-number">{o.invoiceNumber}</dd>
          </div>
        )}
      </dl>
      {o.creditNotes.map((n) => (
        // What a refund gave back, set out as the invoice is: its total, and from a taxed order its
        // net and the VAT returned at the invoice's rate.
        <dl className="sc-lines sc-receipt-credit" data-testid="receipt-credit-note" key={n.id}>
          <div className="sc-line" data-testid="credit-note-head">
            <dt>
              {t.creditNote} <span className="sc-credit-number">{n.number}</span>
            </dt>
            <dd>−{money(n.amount)}</dd>
          </div>
          {n.tax && q?.tax && (
            <>
              <div className="sc-line sc-line-sub" data-testid="credit-note-net">
                <dt>{t.receiptNet}</dt>
                <dd>−{money({ amount: n.amount.amount - n.tax.amount, currency: n.amount.currency })}</dd>
              </div>
              <div className="sc-line sc-line-sub" data-testid="credit-note-tax">
                <dt>{t.receiptTax(formatDecimal(Number(q.tax.rate), locale), q.tax.country)}</dt>
                <dd>−{money(n.tax)}</dd>
              </div>
            </>
          )}
        </dl>
      ))}
      {o.receiptUrl && o.invoiceId && (
        <button
          type="button"
          className="sc-btn sc-btn-secondary sc-download"
          data-testid="invoice-download"
          onClick={() => !downloading && void download()}
          aria-disabled={downloading || undefined}
          aria-busy={downloading || undefined}
        >
          <Icon name={downloading ? 'spinner' : 'download'} className={downloading ? 'sc-spin' : undefined} />
          {downloading ? t.downloading : t.downloadInvoice}
        </button>
      )}
      {downloadError !== null && (
        <p className="sc-alert" role="alert" data-testid="invoice-error">
          <Icon name="alert" />
          {errorText(downloadError)}
        </p>
      )}
    </section>
  );
}
