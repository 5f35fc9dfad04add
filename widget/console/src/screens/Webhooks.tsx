// Stored provider events (GET /admin/webhooks?provider=&outcome=), paged; each body readable on demand.
import { useState, type FormEvent } from 'react';
import { useConsole } from '../context';
import { formatTime } from '../format';
import { t } from '../messages';
import { href, navigate, useRoute } from '../router';
import { Field, Loading, Pager, Status, Table, useCursorPages, useLoad } from '../ui';

export function Webhooks() {
  const { api } = useConsole();
  const query = useRoute().query;
  const applied = { provider: query.get('provider') ?? '', outcome: query.get('outcome') ?? '' };
  const key = JSON.stringify(applied);
  const [draft, setDraft] = useState(applied);
  const pages = useCursorPages(key);
  const list = useLoad(() => api.webhooks({ ...applied, limit: 50, cursor: pages.cursor }), key + pages.cursor);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(href('webhooks', draft));
  };
  return (
    <>
      <form className="filters" role="search" aria-label={t.webhookFiltersLabel} onSubmit={submit}>
        <Field label={t.filterProvider}>
          {(id) => <input id={id} value={draft.provider} onChange={(e) => setDraft({ ...draft, provider: e.target.value })} />}
        </Field>
        <Field label={t.filterOutcome} hint={t.filterOutcomeHint}>
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              value={draft.outcome}
              onChange={(e) => setDraft({ ...draft, outcome: e.target.value })}
            />
          )}
        </Field>
        <div className="filter-buttons">
          <button type="submit" className="primary">
            {t.applyFilters}
          </button>
        </div>
      </form>
      <Loading what={list} />
      {list.data && (
        <>
          <Table
            caption={t.webhooksCaption}
            hideCaption
            rows={list.data.webhooks}
            rowKey={(w) => w.id}
            columns={[
              { header: t.colReceived, cell: (w) => formatTime(w.receivedAt) },
              { header: t.colProvider, cell: (w) => w.provider },
              { header: t.colEvent, cell: (w) => <code>{w.eventId}</code> },
              { header: t.colOutcome, cell: (w) => <Status value={w.outcome} /> },
              { header: t.colDetail, cell: (w) => w.detail || '—' },
              {
                header: t.colBody,
                cell: (w) => (
                  <details>
                    <summary>{t.showBody}</summary>
                    <pre className="body">{w.body}</pre>
                  </details>
                ),
              },
            ]}
          />
          <Pager page={pages.page} hasPrev={pages.page > 1} nextCursor={list.data.nextCursor} onPrev={pages.prev} onNext={pages.next} />
        </>
      )}
    </>
  );
}
