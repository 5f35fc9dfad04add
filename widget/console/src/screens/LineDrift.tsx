// The "Line drift" view (GET /admin/line-drift?cursor=): what the panel reconciliation found
// different from what was paid and what it did, newest first, paged by cursor. Read-only: every
// role may look (the server's viewer rule). A drift has no customer of its own; its line links to
// the subscriptions search by line id, which names the customer.
import { useConsole } from '../context';
import { formatTime } from '../format';
import { t } from '../messages';
import { href, Link } from '../router';
import type { LineDrift as Drift } from '../schemas';
import { Loading, Pager, Table, useCursorPages, useLoad } from '../ui';
import { driftValue } from '../ui/serverText';

const PAGE = 100;

function done(d: Drift) {
  if (d.action === 'failed') return <span className="status status-bad wrap">{t.driftFailed(d.error)}</span>;
  if (d.action === 'listed') return <span className="status status-neutral wrap">{t.driftActions.listed}</span>;
  return <span className="status status-good wrap">{t.driftActions[d.action] ?? d.action}</span>;
}

export function LineDrift() {
  const { api } = useConsole();
  const pages = useCursorPages('');
  const list = useLoad(() => api.panel.drift({ limit: PAGE, cursor: pages.cursor }), pages.cursor);
  const rows = list.data?.drifts ?? [];
  return (
    <>
      <p className="muted">{t.driftIntro}</p>
      <Loading what={list} />
      {list.data &&
        (rows.length === 0 && pages.page === 1 ? (
          <p className="note" data-testid="drift-empty">
            {t.driftEmpty}
          </p>
        ) : (
          <>
            <Table
              caption={t.driftCaption}
              hideCaption
              cards
              rows={rows}
              rowKey={(d) => d.id}
              columns={[
                { header: t.colWhen, cell: (d) => <span className="nowrap">{formatTime(d.at)}</span> },
                {
                  header: t.colService,
                  cell: (d) => (
                    <>
                      <code>{d.username}</code>
                      <br />
                      {d.serviceId ? <code>{d.serviceId}</code> : <span className="muted">{t.driftNoService}</span>}
                    </>
                  ),
                },
                {
                  header: t.colDriftCustomer,
                  cell: (d) =>
                    d.serviceId ? (
                      <Link href={href('subscriptions', { q: d.serviceId })} aria-label={t.driftCustomerLabel(d.serviceId)}>
                        {t.driftCustomerLink}
                      </Link>
                    ) : (
                      '—'
                    ),
                },
                { header: t.colDriftKind, cell: (d) => t.driftKinds[d.kind] ?? d.kind },
                { header: t.colDriftWant, cell: (d) => (d.want ? driftValue(d.want) : '—') },
                { header: t.colDriftFound, cell: (d) => (d.found ? driftValue(d.found) : '—') },
                { header: t.colDriftAction, cell: done },
              ]}
            />
            <Pager page={pages.page} hasPrev={pages.page > 1} nextCursor={list.data.nextCursor} onPrev={pages.prev} onNext={pages.next} />
          </>
        ))}
    </>
  );
}
