// Orders (GET /admin/orders): filters kept in the URL (a filtered list is a link; the gateway a
// choice of the configured ones), keyset paging, and CSV export of the page shown or of every
// order the filters match. Also the held orders' review (status fraud): approve in a dialog, and
// reject with its own reason on each row.
import { useState, type FormEvent } from 'react';
import type { Api, Query } from '../api';
import { useConsole } from '../context';
import { download, toCsv } from '../csv';
import { t } from '../messages';
import { href, Link, navigate, useRoute } from '../router';
import { ORDER_STATUSES, type Order } from '../schemas';
import { ApproveButton } from '../money/ApproveButton';
import { DateField } from '../ui/DateField';
import { orderColumns } from '../ui/orderColumns';
import { ConfirmButton, Field, Loading, Outcome, Pager, Table, useAction, useCursorPages, useLoad, type Column } from '../ui';
import { ORDER_KINDS } from '../schemas';

const FILTERS = ['status', 'kind', 'q', 'gateway', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** EXPORT_MAX_PAGES bounds an export of the filtered set (200 orders a page). */
export const EXPORT_MAX_PAGES = 100;

const CSV_HEADER = [
  'id',
  'kind',
  'product',
  'status',
  'email',
  'customerId',
  'amount',
  'currency',
  'refunded',
  'net',
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
      o.product,
      o.status,
      o.email,
      o.customerId,
      o.total.amount,
      o.total.currency,
      o.refunded.amount,
      o.net.amount,
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
  // The configured gateways, as the list answers them (kept while a page loads); the one in the
  // URL stays a choice even before the first answer.
  const [known, setKnown] = useState<string[]>([]);
  if (list.data && list.data.gateways.join() !== known.join()) setKnown(list.data.gateways);
  const gateways = applied.gateway && !known.includes(applied.gateway) ? [...known, applied.gateway] : known;

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
        <Field label={t.filterKind}>
          {(id) => (
            <select id={id} value={draft.kind} onChange={set('kind')}>
              <option value="">{t.anyKind}</option>
              {ORDER_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t.kinds[k]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t.filterQuery} hint={t.filterQueryHint}>
          {(id, hint) => <input id={id} aria-describedby={hint} type="search" value={draft.q} onChange={set('q')} />}
        </Field>
        <Field label={t.filterGateway}>
          {(id) => (
            <select id={id} value={draft.gateway} onChange={set('gateway')}>
              <option value="">{t.anyGateway}</option>
              {gateways.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          )}
        </Field>
        <DateField label={t.filterFrom} value={draft.from} onChange={(from) => setDraft({ ...draft, from })} />
        <DateField label={t.filterTo} value={draft.to} onChange={(to) => setDraft({ ...draft, to })} />
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

/** HeldOrders lists the orders the fraud check holds, to approve (in a dialog: ask the buyer to pay, or provision unpaid) or reject (cancel and refund, each row with its reason). */
export function HeldOrders() {
  const { api, can } = useConsole();
  const pages = useCursorPages('fraud');
  const list = useLoad(() => api.orders.list({ status: 'fraud', limit: 50, cursor: pages.cursor }), pages.cursor);
  const action = useAction(list.reload);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const base = orderColumns();
  const columns: Column<Order>[] = [
    base[0]!,
    base[1]!,
    base[2]!,
    base[4]!,
    base[6]!,
    {
      header: t.colReason,
      cell: (o) => (
        <input
          aria-label={t.rejectReasonFor(o.id)}
          className="row-reason"
          value={reasons[o.id] ?? ''}
          maxLength={500}
          disabled={!can('reject')}
          onChange={(e) => setReasons({ ...reasons, [o.id]: e.target.value })}
        />
      ),
    },
    {
      header: t.colActions,
      cell: (o) => (
        <span className="actions">
          <ApproveButton order={o} onDone={(text) => void action.run(() => Promise.resolve(text))} />
          <ConfirmButton
            label={t.reject}
            confirmLabel={t.confirmReject}
            disabled={!can('reject') || action.busy}
            onConfirm={() =>
              action.run(async () => {
                await api.orders.reject(o.id, reasons[o.id] ?? '');
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
      {!can('requestPayment') && <p className="note note-forbidden">{t.roleCannot}</p>}
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
