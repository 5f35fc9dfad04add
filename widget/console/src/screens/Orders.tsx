// Orders (GET /admin/orders): filters kept in the URL (a filtered list is a link), keyset paging,
// and CSV export of the page shown or of every order the filters match. Also the held orders'
// review (status fraud) with approve and reject on each row.
import { useState, type FormEvent } from 'react';
import type { Api, Query } from '../api';
import { useConsole } from '../context';
import { download, toCsv } from '../csv';
import { formatMoney, formatTime } from '../format';
import { t } from '../messages';
import { href, Link, navigate, useRoute } from '../router';
import { ORDER_STATUSES, type Order } from '../schemas';
import { ConfirmButton, Field, Loading, Outcome, Pager, Status, Table, useAction, useCursorPages, useLoad, type Column } from '../ui';

const FILTERS = ['status', 'q', 'gateway', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** EXPORT_MAX_PAGES bounds an export of the filtered set (200 orders a page). */
export const EXPORT_MAX_PAGES = 100;

export function orderColumns(): Column<Order>[] {
  return [
    { header: t.colOrder, cell: (o) => <Link href={href(`orders/${encodeURIComponent(o.id)}`)}>{o.id}</Link> },
    { header: t.colCreated, cell: (o) => formatTime(o.createdAt) },
    {
      header: t.colEmail,
      cell: (o) => (o.customerId ? <Link href={href(`customers/${encodeURIComponent(o.customerId)}`)}>{o.email}</Link> : o.email),
    },
    { header: t.colStatus, cell: (o) => <Status value={o.status} /> },
    { header: t.colTotal, cell: (o) => formatMoney(o.total), numeric: true },
    { header: t.colGateway, cell: (o) => o.gateway },
    {
      header: t.colInvoice,
      cell: (o) => (
        <>
          {o.invoiceId} <Status value={o.invoiceStatus} />
        </>
      ),
    },
  ];
}

const CSV_HEADER = [
  'id',
  'kind',
  'status',
  'email',
  'customerId',
  'amount',
  'currency',
  'gateway',
  'invoiceId',
  'invoiceStatus',
  'promoCode',
  'createdAt',
  'paidAt',
];

export function ordersCsv(orders: readonly Order[]): string {
  return toCsv(
    CSV_HEADER,
    orders.map((o) => [
      o.id,
      o.kind,
      o.status,
      o.email,
      o.customerId,
      o.total.amount,
      o.total.currency,
      o.gateway,
      o.invoiceId,
      o.invoiceStatus,
      o.promoCode,
      o.createdAt,
      o.paidAt,
    ]),
  );
}

/** allOrders follows nextCursor through every page the filters match, up to EXPORT_MAX_PAGES. */
export async function allOrders(api: Api, q: Query): Promise<{ orders: Order[]; complete: boolean }> {
  const orders: Order[] = [];
  let cursor = '';
  for (let i = 0; i < EXPORT_MAX_PAGES; i++) {
    const page = await api.orders.list({ ...q, limit: 200, cursor });
    orders.push(...page.orders);
    if (!page.nextCursor) return { orders, complete: true };
    cursor = page.nextCursor;
  }
  return { orders, complete: false };
}

function readFilters(query: URLSearchParams): Filters {
  return Object.fromEntries(FILTERS.map((k) => [k, query.get(k) ?? ''])) as Filters;
}

export function Orders() {
  const { api } = useConsole();
  const route = useRoute();
  const applied = readFilters(route.query);
  const key = JSON.stringify(applied);
  const [draft, setDraft] = useState<Filters>(applied);
  const [draftKey, setDraftKey] = useState(key);
  if (draftKey !== key) {
    setDraftKey(key);
    setDraft(applied);
  }
  const pages = useCursorPages(key);
  const list = useLoad(() => api.orders.list({ ...applied, limit: 50, cursor: pages.cursor }), key + pages.cursor);
  const exporting = useAction();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(href('orders', draft));
  };
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });

  return (
    <>
      <form className="filters" onSubmit={submit} role="search" aria-label={t.orderFiltersLabel}>
        <Field label={t.filterStatus}>
          {(id) => (
            <select id={id} value={draft.status} onChange={set('status')}>
              <option value="">{t.anyStatus}</option>
              {ORDER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t.statuses[s]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t.filterQuery} hint={t.filterQueryHint}>
          {(id, hint) => <input id={id} aria-describedby={hint} type="search" value={draft.q} onChange={set('q')} />}
        </Field>
        <Field label={t.filterGateway}>{(id) => <input id={id} value={draft.gateway} onChange={set('gateway')} />}</Field>
        <Field label={t.filterFrom}>{(id) => <input id={id} type="date" value={draft.from} onChange={set('from')} />}</Field>
        <Field label={t.filterTo}>{(id) => <input id={id} type="date" value={draft.to} onChange={set('to')} />}</Field>
        <div className="filter-buttons">
          <button type="submit" className="primary">
            {t.applyFilters}
          </button>
          <Link href={href('orders')} className="button">
            {t.clearFilters}
          </Link>
        </div>
      </form>
      <Loading what={list} />
      {list.data && (
        <>
          <div className="toolbar">
            <button
              type="button"
              disabled={!list.data.orders.length}
              onClick={() => download('orders-page.csv', ordersCsv(list.data!.orders))}
            >
              {t.exportPage}
            </button>
            <button
              type="button"
              disabled={exporting.busy}
              onClick={() =>
                exporting.run(async () => {
                  const { orders, complete } = await allOrders(api, applied);
                  download('orders.csv', ordersCsv(orders));
                  return complete ? t.exported(orders.length) : t.exportedCapped(orders.length);
                })
              }
            >
              {t.exportAll}
            </button>
            <Outcome result={exporting.result} />
          </div>
          <Table caption={t.ordersCaption} hideCaption columns={orderColumns()} rows={list.data.orders} rowKey={(o) => o.id} />
          <Pager page={pages.page} hasPrev={pages.page > 1} nextCursor={list.data.nextCursor} onPrev={pages.prev} onNext={pages.next} />
        </>
      )}
    </>
  );
}

/** HeldOrders lists the orders the fraud check holds, to approve (provision now) or reject (cancel and refund). */
export function HeldOrders() {
  const { api, can } = useConsole();
  const pages = useCursorPages('fraud');
  const list = useLoad(() => api.orders.list({ status: 'fraud', limit: 50, cursor: pages.cursor }), pages.cursor);
  const action = useAction(list.reload);
  const [reason, setReason] = useState('');
  const columns: Column<Order>[] = [
    ...orderColumns().slice(0, 3),
    orderColumns()[4]!,
    {
      header: t.colActions,
      cell: (o) => (
        <span className="actions">
          <button
            type="button"
            disabled={!can('approve') || action.busy}
            onClick={() =>
              action.run(async () => {
                await api.orders.approve(o.id);
                return t.approved(o.id);
              })
            }
          >
            {t.approve}
          </button>
          <ConfirmButton
            label={t.reject}
            confirmLabel={t.confirmReject}
            disabled={!can('reject') || action.busy}
            onConfirm={() =>
              action.run(async () => {
                await api.orders.reject(o.id, reason);
                return t.rejected(o.id);
              })
            }
          />
        </span>
      ),
    },
  ];
  return (
    <>
      <p>{t.heldIntro}</p>
      {!can('approve') && <p className="note note-forbidden">{t.roleCannot}</p>}
      <Field label={t.rejectReasonLabel}>
        {(id) => <input id={id} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />}
      </Field>
      <Outcome result={action.result} />
      <Loading what={list} />
      {list.data && (
        <>
          <Table caption={t.heldCaption} hideCaption columns={columns} rows={list.data.orders} rowKey={(o) => o.id} />
          <Pager page={pages.page} hasPrev={pages.page > 1} nextCursor={list.data.nextCursor} onPrev={pages.prev} onNext={pages.next} />
        </>
      )}
    </>
  );
}
