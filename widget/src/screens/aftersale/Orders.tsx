// "Orders and invoices" in "My services" (issue 25): the session's orders newest first, each with
// its date, what it bought, its total and status, and its invoice's PDF (and any credit note's)
// fetched with the session's token. Part of the after-sale chunk: never on the first paint.
import { useState } from 'react';
import { downloadCreditNote, downloadInvoice, listOrders, type Order } from '../../api/orders';
import { isApiError } from '../../api/client';
import { useCheckout, useController, useResource } from '../../ui/context';
import { useAfterSaleTexts } from '../../ui/texts';
import { Icon } from '../../ui/icons';
import { Alert } from '../../ui/Notice';
import { orderItems } from '../../ui/orderLines';
import { formatDecimal } from '../../i18n/amounts';
import { useAfterSaleError } from './hooks';
import { RowsSkeleton } from './Skeleton';

/** The badge colour of an order status: the services' status classes. */
const TONES: Record<string, string> = {
  paid: 'active',
  provisioning: 'active',
  active: 'active',
  pending: 'overdue',
  needs_review: 'overdue',
  partially_refunded: 'overdue',
  fraud: 'suspended',
  cancelled: 'cancelled',
  failed: 'cancelled',
  refunded: 'cancelled',
};

export function OrdersSection() {
  const c = useController();
  const { a, t } = useAfterSaleTexts();
  const errText = useAfterSaleError();
  const token = useCheckout((s) => s.persisted.token);
  const list = useResource(`orders:${token}`, () => listOrders(c.client));
  const orders = list.data?.orders ?? [];

  return (
    <section
      className="sc-card sc-orders"
      data-testid="orders"
      aria-labelledby="sc-orders-title"
      aria-busy={list.status === 'loading' || undefined}
    >
      <h3 className="sc-card-title" id="sc-orders-title">
        {a.ordersTitle}
      </h3>
      {list.status === 'loading' && !list.data ? (
        <RowsSkeleton label={a.loadingOrders} testId="orders-loading" />
      ) : list.status === 'error' && !list.data ? (
        <div className="sc-orders-error">
          <Alert testId="orders-error">{isApiError(list.error) ? errText(list.error) : t.errors.internal}</Alert>
          <button type="button" className="sc-btn sc-btn-secondary sc-btn-small" data-testid="orders-retry" onClick={list.reload}>
            {t.tryAgain}
          </button>
        </div>
      ) : orders.length === 0 ? (
        <p className="sc-empty" data-testid="orders-empty">
          {a.noOrders}
        </p>
      ) : (
        <ul className="sc-order-list">
          {orders.map((o) => (
            <OrderRow key={o.orderId} order={o} />
          ))}
        </ul>
      )}
    </section>
  );
}

function OrderRow({ order: o }: { order: Order }) {
  const c = useController();
  const { a, t, money, date, locale } = useAfterSaleTexts();
  const errText = useAfterSaleError();
  const tax = o.quote?.tax;
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const status = (a.orderStatuses as Record<string, string>)[o.status] ?? o.status;
  const idBase = `sc-order-${o.orderId}`;

  async function download(what: string, fetchPdf: () => Promise<void>) {
    if (busy !== null) return;
    setBusy(what);
    setError(null);
    try {
      await fetchPdf();
    } catch (e) {
      setError(errText(e));
    } finally {
      setBusy(null);
    }
  }

  return (
    <li className="sc-order" data-testid="order-row" data-order-id={o.orderId} aria-labelledby={`${idBase}-what`}>
      <span className="sc-order-date" data-testid="order-date">
        {o.createdAt ? date(o.createdAt) : ''}
      </span>
      <span className="sc-order-what" id={`${idBase}-what`} data-testid="order-what">
        {orderItems(o, t, date)}
        {o.invoiceNumber && (
          <span className="sc-muted sc-small">
            {' · '}
            <span className="sc-nowrap">{o.invoiceNumber}</span>
          </span>
        )}
      </span>
      <strong className="sc-order-total" data-testid="order-total">
        {money(o.total)}
      </strong>
      <span
        className={`sc-status sc-order-status sc-status-${TONES[o.status] ?? 'pending'}`}
        data-testid="order-status"
        data-status={o.status}
      >
        {status}
      </span>
      <span className="sc-order-pdfs">
        {o.receiptUrl && o.invoiceId && (
          <button
            type="button"
            className="sc-btn sc-btn-ghost sc-btn-small"
            data-testid="order-invoice"
            aria-label={a.invoicePdfFor(o.invoiceNumber || o.orderId)}
            aria-disabled={busy !== null || undefined}
            aria-busy={busy === 'invoice' || undefined}
            onClick={() => void download('invoice', () => downloadInvoice(c.client, o, c.host.shadowRoot))}
          >
            <Icon name={busy === 'invoice' ? 'spinner' : 'download'} className={busy === 'invoice' ? 'sc-spin' : undefined} />
            {a.invoicePdf}
          </button>
        )}
        {o.creditNotes.map((n) => (
          // A credit note as the receipt and its PDF set it out: from a taxed order, its net and the
          // VAT it gives back at the invoice's rate beside its total.
          <span className="sc-order-credit" key={n.id}>
            <button
              type="button"
              className="sc-btn sc-btn-ghost sc-btn-small"
              data-testid="order-credit-note"
              aria-label={a.creditNotePdfFor(n.number)}
              aria-disabled={busy !== null || undefined}
              aria-busy={busy === n.id || undefined}
              onClick={() => void download(n.id, () => downloadCreditNote(c.client, n, c.host.shadowRoot))}
            >
              <Icon name={busy === n.id ? 'spinner' : 'download'} className={busy === n.id ? 'sc-spin' : undefined} />
              {t.creditNote} −{money(n.amount)}
            </button>
            {n.tax && tax && (
              <span className="sc-muted sc-small" data-testid="order-credit-note-tax">
                <span className="sc-nowrap">
                  {t.receiptNet} −{money({ amount: n.amount.amount - n.tax.amount, currency: n.amount.currency })}
                </span>
                {' · '}
                <span className="sc-nowrap">
                  {t.receiptTax(formatDecimal(Number(tax.rate), locale), tax.country)} −{money(n.tax)}
                </span>
              </span>
            )}
          </span>
        ))}
      </span>
      {error && (
        <div className="sc-order-error">
          <Alert testId="order-error">{error}</Alert>
        </div>
      )}
    </li>
  );
}
