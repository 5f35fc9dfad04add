// The orders table's columns, shared by the Orders and Held orders screens and a customer's page.
import { formatMoney, formatTime, orderKind } from '../format';
import { t } from '../messages';
import { href, Link } from '../router';
import type { Order } from '../schemas';
import { Id } from './Id';
import { Status, type Column } from './index';

export function orderColumns(): Column<Order>[] {
  return [
    {
      header: t.colOrder,
      cell: (o) => (
        <Link href={href(`orders/${encodeURIComponent(o.id)}`)}>
          <Id value={o.id} />
        </Link>
      ),
    },
    { header: t.colCreated, cell: (o) => formatTime(o.createdAt) },
    {
      header: t.colEmail,
      cell: (o) => (o.customerId ? <Link href={href(`customers/${encodeURIComponent(o.customerId)}`)}>{o.email}</Link> : o.email),
    },
    { header: t.colKind, cell: (o) => orderKind(o.kind) },
    { header: t.colProduct, cell: (o) => o.product || '—' },
    { header: t.colStatus, cell: (o) => <Status value={o.status} /> },
    { header: t.colTotal, cell: (o) => formatMoney(o.total), numeric: true },
    { header: t.colNet, cell: (o) => formatMoney(o.net), numeric: true },
    { header: t.colGateway, cell: (o) => o.gateway },
    {
      header: t.colInvoice,
      cell: (o) => (
        <>
          <Id value={o.invoiceId} /> <Status value={o.invoiceStatus} />
        </>
      ),
    },
  ];
}
