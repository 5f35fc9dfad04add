// The audit log (GET /admin/audit?operator=&action=&target=&ip=), paged, newest first. Refused
// console sign-ins (action console-signin-failed) carry the address they came from.
import { useState, type FormEvent } from 'react';
import { useConsole } from '../context';
import { formatTime } from '../format';
import { t } from '../messages';
import { href, navigate, useRoute } from '../router';
import { Field, Loading, Pager, Status, Table, useCursorPages, useLoad } from '../ui';
import { auditAction, auditDetail } from '../ui/serverText';

const KEYS = ['operator', 'action', 'target', 'ip'] as const;

const SIGNIN_FAILED = 'console-signin-failed';

export function Audit() {
  const { api } = useConsole();
  const query = useRoute().query;
  const applied = Object.fromEntries(KEYS.map((k) => [k, query.get(k) ?? ''])) as Record<(typeof KEYS)[number], string>;
  const key = JSON.stringify(applied);
  const [draft, setDraft] = useState(applied);
  const pages = useCursorPages(key);
  const list = useLoad(() => api.audit({ ...applied, limit: 100, cursor: pages.cursor }), key + pages.cursor);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(href('audit', draft));
  };
  return (
    <>
      <form className="filters" role="search" aria-label={t.auditFiltersLabel} onSubmit={submit}>
        <Field label={t.filterOperator}>
          {(id) => <input id={id} value={draft.operator} onChange={(e) => setDraft({ ...draft, operator: e.target.value })} />}
        </Field>
        <Field label={t.filterAction}>
          {(id) => <input id={id} value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })} />}
        </Field>
        <Field label={t.filterTarget}>
          {(id) => <input id={id} value={draft.target} onChange={(e) => setDraft({ ...draft, target: e.target.value })} />}
        </Field>
        <Field label={t.filterIp}>
          {(id) => <input id={id} value={draft.ip} onChange={(e) => setDraft({ ...draft, ip: e.target.value })} />}
        </Field>
        <div className="filter-buttons">
          <button type="submit" className="primary">
            {t.applyFilters}
          </button>
          <button type="button" onClick={() => navigate(href('audit', { ...draft, action: SIGNIN_FAILED }))}>
            {t.failedSignIns}
          </button>
        </div>
      </form>
      <Loading what={list} />
      {list.data && (
        <>
          <Table
            caption={t.auditCaption}
            hideCaption
            rows={list.data.entries}
            rowKey={(a) => a.id}
            columns={[
              { header: t.colWhen, cell: (a) => formatTime(a.at) },
              { header: t.colWho, cell: (a) => a.operator || a.customerId },
              { header: t.colAction, cell: (a) => auditAction(a.action) },
              { header: t.colTarget, cell: (a) => <code>{a.target}</code> },
              { header: t.colResult, cell: (a) => <Status value={a.result} /> },
              { header: t.colDetail, cell: (a) => auditDetail(a) || '—' },
              { header: t.colAddress, cell: (a) => a.ip || '—' },
            ]}
          />
          <Pager page={pages.page} hasPrev={pages.page > 1} nextCursor={list.data.nextCursor} onPrev={pages.prev} onNext={pages.next} />
        </>
      )}
    </>
  );
}
