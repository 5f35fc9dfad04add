// Customers (GET /admin/customers?q=) and one customer (GET /admin/customers/{id}) with its
// orders, lines and sessions; support and owners may sign it out or mail it a sign-in link.
import { useState, type FormEvent } from 'react';
import { useConsole } from '../context';
import { formatTime } from '../format';
import { t } from '../messages';
import { href, Link, navigate, useRoute } from '../router';
import { Field, Loading, Outcome, Table, useAction, useLoad } from '../ui';
import { LinesTable } from '../ui/LinesTable';
import { orderColumns } from '../ui/orderColumns';

export function Customers() {
  const { api } = useConsole();
  const q = useRoute().query.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  const list = useLoad(() => api.customers.list({ q, limit: 100 }), q);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(href('customers', { q: draft.trim() }));
  };
  return (
    <>
      <form className="filters" role="search" aria-label={t.customerSearchLabel} onSubmit={submit}>
        <Field label={t.customerQueryLabel} hint={t.customerQueryHint}>
          {(id, hint) => <input id={id} aria-describedby={hint} type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />}
        </Field>
        <div className="filter-buttons">
          <button type="submit" className="primary">
            {t.search}
          </button>
        </div>
      </form>
      <Loading what={list} />
      {list.data && (
        <Table
          caption={t.customersCaption}
          hideCaption
          rows={list.data.customers}
          rowKey={(c) => c.id}
          columns={[
            { header: t.colEmail, cell: (c) => <Link href={href(`customers/${encodeURIComponent(c.id)}`)}>{c.email}</Link> },
            { header: t.colCustomer, cell: (c) => c.id },
            { header: t.colCreated, cell: (c) => formatTime(c.createdAt) },
            { header: t.colOrders, cell: (c) => c.orders, numeric: true },
            { header: t.colActiveLines, cell: (c) => c.activeLines, numeric: true },
          ]}
        />
      )}
    </>
  );
}

export function CustomerDetail({ id }: { id: string }) {
  const { api, can } = useConsole();
  const detail = useLoad(() => api.customers.get(id), id);
  const action = useAction(detail.reload);
  const d = detail.data;
  if (!d) return <Loading what={detail} />;
  return (
    <>
      <dl className="facts" data-testid="customer-facts">
        <dt>{t.colEmail}</dt>
        <dd>{d.customer.email}</dd>
        <dt>{t.colCustomer}</dt>
        <dd>{d.customer.id}</dd>
        <dt>{t.colCreated}</dt>
        <dd>{formatTime(d.customer.createdAt)}</dd>
      </dl>
      <div className="toolbar">
        <button
          type="button"
          disabled={!can('signoutCustomer') || action.busy}
          onClick={() => action.run(async () => t.signedOut((await api.customers.signout(id)).sessionsEnded))}
        >
          {t.signOutCustomer}
        </button>
        <button
          type="button"
          disabled={!can('signinLink') || action.busy}
          onClick={() => action.run(async () => t.linkSent((await api.customers.signinLink(id)).sentTo))}
        >
          {t.sendSigninLink}
        </button>
      </div>
      <Outcome result={action.result} />
      <section aria-labelledby="c-orders-h">
        <h2 id="c-orders-h">{t.ordersHeading}</h2>
        <Table caption={t.ordersHeading} hideCaption columns={orderColumns()} rows={d.orders} rowKey={(o) => o.id} />
      </section>
      <section aria-labelledby="c-lines-h">
        <h2 id="c-lines-h">{t.linesHeading}</h2>
        <LinesTable lines={d.services} onChanged={detail.reload} />
      </section>
      <section aria-labelledby="c-sessions-h">
        <h2 id="c-sessions-h">{t.sessionsHeading}</h2>
        <Table
          caption={t.sessionsHeading}
          hideCaption
          rows={d.sessions}
          rowKey={(s) => s.id}
          columns={[
            { header: t.colSession, cell: (s) => <code>{s.id}</code> },
            { header: t.colScope, cell: (s) => s.scope },
            { header: t.colCreated, cell: (s) => formatTime(s.createdAt) },
            { header: t.colExpires, cell: (s) => formatTime(s.expiresAt) },
          ]}
        />
      </section>
    </>
  );
}
