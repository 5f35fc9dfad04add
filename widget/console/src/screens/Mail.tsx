// The outbox (GET /admin/mail?status=&q=), paged; support and owners may send a message again.
import { useState, type FormEvent } from 'react';
import { useConsole } from '../context';
import { formatTime } from '../format';
import { t } from '../messages';
import { href, navigate, useRoute } from '../router';
import { Field, Loading, Outcome, Pager, Status, Table, useAction, useCursorPages, useLoad } from '../ui';

export function MailList() {
  const { api, can } = useConsole();
  const query = useRoute().query;
  const applied = { status: query.get('status') ?? '', q: query.get('q') ?? '' };
  const key = JSON.stringify(applied);
  const [draft, setDraft] = useState(applied);
  const pages = useCursorPages(key);
  const list = useLoad(() => api.mail.list({ ...applied, limit: 50, cursor: pages.cursor }), key + pages.cursor);
  const action = useAction(list.reload);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(href('mail', draft));
  };
  return (
    <>
      <form className="filters" role="search" aria-label={t.mailFiltersLabel} onSubmit={submit}>
        <Field label={t.filterMailStatus}>
          {(id) => (
            <select id={id} value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
              <option value="">{t.anyStatus}</option>
              {(['stored', 'pending', 'sent', 'failed'] as const).map((s) => (
                <option key={s} value={s}>
                  {t.statuses[s]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t.filterRecipient}>
          {(id) => <input id={id} type="search" value={draft.q} onChange={(e) => setDraft({ ...draft, q: e.target.value })} />}
        </Field>
        <div className="filter-buttons">
          <button type="submit" className="primary">
            {t.applyFilters}
          </button>
        </div>
      </form>
      <Outcome result={action.result} />
      <Loading what={list} />
      {list.data && (
        <>
          <Table
            caption={t.mailCaption}
            hideCaption
            rows={list.data.mails}
            rowKey={(m) => m.id}
            columns={[
              { header: t.colCreated, cell: (m) => formatTime(m.createdAt) },
              { header: t.colTo, cell: (m) => m.to },
              { header: t.colSubject, cell: (m) => m.subject },
              { header: t.colStatus, cell: (m) => <Status value={m.status} /> },
              { header: t.colAttempts, cell: (m) => m.attempts, numeric: true },
              { header: t.colLastError, cell: (m) => m.lastError || '—' },
              { header: t.colSent, cell: (m) => formatTime(m.sentAt) },
              {
                header: t.colActions,
                cell: (m) => (
                  <button
                    type="button"
                    disabled={!can('resendMail') || action.busy}
                    onClick={() =>
                      action.run(async () => {
                        await api.mail.resend(m.id);
                        return t.mailResent(m.to);
                      })
                    }
                  >
                    {t.resend}
                  </button>
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
