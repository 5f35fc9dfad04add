// Subscriptions (GET /admin/services): every line with its renewal, filtered by status, search
// (email, username, MAC, line id), due date, auto-renew and plan, the filters kept in the URL,
// keyset paging and the CSV export of the filtered list (GET /admin/services.csv, downloaded by the
// browser with the session cookie). Support and owners cancel or resume the buyer's auto-renew and
// mail the open renewal's pay link, each after a confirmation naming its effect. A running line's
// terms change (plan, cycle, connections, due date) after a preview of what it costs, and the panel
// actions (suspend, unsuspend, extend, terminate) ask in a dialog naming their effect
// (ui/LineDialogs.tsx).
import { useState, type FormEvent } from 'react';
import { useConsole } from '../context';
import { formatDay, formatMoney } from '../format';
import { t } from '../messages';
import { href, Link, navigate, useRoute } from '../router';
import { SERVICE_STATUSES, type Subscription } from '../schemas';
import { ConfirmButton, Field, Loading, Outcome, Pager, Status, Table, useAction, useCursorPages, useLoad, type Column } from '../ui';
import { Id } from '../ui/Id';
import { LineDialog, type LineAction } from '../ui/LineDialogs';

const FILTERS = ['status', 'q', 'dueWithin', 'autoRenew', 'pid'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** DUE_CHOICES are the due-within choices: due now or overdue, then days ahead. */
const DUE_DAYS = [7, 14, 30, 60] as const;

const RUNNING = new Set(['Active', 'Overdue', 'Suspended']);

function readFilters(query: URLSearchParams): Filters {
  return Object.fromEntries(FILTERS.map((k) => [k, query.get(k) ?? ''])) as Filters;
}

function autoRenewText(s: Subscription): string {
  if (!s.autoRenew) return t.autoRenewOff;
  return s.renewsWithCard ? t.autoRenewCard : t.autoRenewOn;
}

export function Subscriptions() {
  const { api, can, billedHere } = useConsole();
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
  const list = useLoad(() => api.services.list({ ...applied, limit: 50, cursor: pages.cursor }), key + pages.cursor);
  const action = useAction(list.reload);
  const [dialog, setDialog] = useState<{ sub: Subscription; action: LineAction } | null>(null);
  const open = (sub: Subscription, a: LineAction) => () => setDialog({ sub, action: a });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    navigate(href('subscriptions', { ...draft, q: draft.q.trim() }));
  };
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });

  const actions = (s: Subscription) => {
    const running = RUNNING.has(s.status);
    return (
      <span className="actions">
        {s.autoRenew && (
          <ConfirmButton
            label={t.cancelAutoRenew}
            confirmLabel={t.confirmCancelAutoRenew(s.nextDueDate && formatDay(s.nextDueDate))}
            disabled={!can('autoRenew') || action.busy}
            onConfirm={() =>
              action.run(async () => {
                await api.services.cancel(s.serviceId);
                return t.autoRenewCancelled(s.serviceId);
              })
            }
          />
        )}
        {!s.autoRenew && running && s.nextDueDate !== '' && s.recurringAmount !== null && (
          <ConfirmButton
            label={t.resumeAutoRenew}
            confirmLabel={t.confirmResumeAutoRenew(s.nextDueDate && formatDay(s.nextDueDate))}
            danger={false}
            disabled={!can('autoRenew') || action.busy}
            onConfirm={() =>
              action.run(async () => {
                await api.services.resume(s.serviceId);
                return t.autoRenewResumed(s.serviceId);
              })
            }
          />
        )}
        {s.renewalInvoiceId && (
          <ConfirmButton
            label={t.sendRenewalLink}
            confirmLabel={t.confirmRenewalLink(s.customer.email)}
            danger={false}
            disabled={!can('renewalLink') || action.busy}
            onConfirm={() =>
              action.run(async () => {
                const r = await api.services.renewalLink(s.serviceId);
                return t.renewalLinkSent(r.sentTo, r.invoiceId);
              })
            }
          />
        )}
        {billedHere && running && s.nextDueDate !== '' && s.recurringAmount !== null && (
          <button type="button" disabled={!can('changeAtRenewal') || action.busy} onClick={open(s, 'change')}>
            {t.changeLine} <span className="visually-hidden">{t.changeLineWhere(s.serviceId)}</span>
          </button>
        )}
        {(s.status === 'Active' || s.status === 'Overdue') && (
          <button type="button" disabled={!can('suspend') || action.busy} onClick={open(s, 'suspend')}>
            {t.suspend} <span className="visually-hidden">{t.changeLineWhere(s.serviceId)}</span>
          </button>
        )}
        {s.status === 'Suspended' && (
          <button type="button" disabled={!can('unsuspend') || action.busy} onClick={open(s, 'unsuspend')}>
            {t.unsuspend} <span className="visually-hidden">{t.changeLineWhere(s.serviceId)}</span>
          </button>
        )}
        {billedHere && running && (
          <button type="button" disabled={!can('extend') || action.busy} onClick={open(s, 'extend')}>
            {t.extend} <span className="visually-hidden">{t.changeLineWhere(s.serviceId)}</span>
          </button>
        )}
        {running && (
          <button type="button" className="danger" disabled={!can('terminate') || action.busy} onClick={open(s, 'terminate')}>
            {t.terminate} <span className="visually-hidden">{t.changeLineWhere(s.serviceId)}</span>
          </button>
        )}
      </span>
    );
  };

  // Eight columns that fit at 1280 px in every language (issue 26, point 8): what belongs together
  // shares a cell (the line with its username and MAC, the plan with its cycle and connections, the
  // due date with the days overdue, the open renewal and why its card did not pay), long ids
  // abbreviated (ui/Id.tsx), the actions last and wrapping; below 640 px each row is a card.
  const columns: Column<Subscription>[] = [
    {
      header: t.colService,
      cell: (s) => (
        <span className="stack">
          <Id value={s.serviceId} />
          {s.username && (
            <span className="sub">
              {t.colUsername}: <code>{s.username}</code>
            </span>
          )}
          {s.macAddress && (
            <span className="sub">
              {t.colMac}: <code>{s.macAddress}</code>
            </span>
          )}
        </span>
      ),
    },
    { header: t.colEmail, cell: (s) => <Link href={href(`customers/${encodeURIComponent(s.customer.id)}`)}>{s.customer.email}</Link> },
    { header: t.colStatus, cell: (s) => <Status value={s.status} /> },
    {
      header: t.colPlan,
      cell: (s) => (
        <span className="stack">
          <span>
            {s.plan} ({s.pid})
          </span>
          <span className="sub">
            {t.cycleNames[s.billingCycle] ?? s.billingCycle} · {t.colConnections}: {s.maxConnections}
          </span>
        </span>
      ),
    },
    {
      header: t.colNextDue,
      cell: (s) => (
        <span className="stack">
          <span className="nowrap">{formatDay(s.nextDueDate)}</span>
          {s.overdueDays > 0 && (
            <span className="sub overdue">
              {t.colOverdue}: {t.overdueDays(s.overdueDays)}
            </span>
          )}
          {s.renewalInvoiceId && (
            <span className="sub">
              {t.colRenewalInvoice}: <Id value={s.renewalInvoiceId} />
            </span>
          )}
          {s.renewalCardCharge && (
            <span className="sub overdue" data-testid="card-charge">
              {t.cardCharge[s.renewalCardCharge]}
            </span>
          )}
        </span>
      ),
    },
    { header: t.colRenewsAt, cell: (s) => (s.recurringAmount ? formatMoney(s.recurringAmount) : '—'), numeric: true },
    { header: t.colAutoRenew, cell: autoRenewText },
    { header: t.colActions, cell: actions },
  ];

  return (
    <>
      <form className="filters" onSubmit={submit} role="search" aria-label={t.subscriptionFiltersLabel}>
        <Field label={t.filterStatus}>
          {(id) => (
            <select id={id} value={draft.status} onChange={set('status')}>
              <option value="">{t.anyStatus}</option>
              {SERVICE_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t.statuses[s]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t.subQueryLabel} hint={t.subQueryHint}>
          {(id, hint) => <input id={id} aria-describedby={hint} type="search" value={draft.q} onChange={set('q')} />}
        </Field>
        <Field label={t.subDueLabel}>
          {(id) => (
            <select id={id} value={draft.dueWithin} onChange={set('dueWithin')}>
              <option value="">{t.subDueAny}</option>
              <option value="0d">{t.subDueOverdue}</option>
              {DUE_DAYS.map((n) => (
                <option key={n} value={`${n}d`}>
                  {t.subDueDays(n)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t.subAutoRenewLabel}>
          {(id) => (
            <select id={id} value={draft.autoRenew} onChange={set('autoRenew')}>
              <option value="">{t.subAutoRenewAny}</option>
              <option value="true">{t.subAutoRenewOn}</option>
              <option value="false">{t.subAutoRenewOff}</option>
            </select>
          )}
        </Field>
        <Field label={t.subPlanLabel}>
          {(id) => <input id={id} type="number" min={1} className="days" value={draft.pid} onChange={set('pid')} />}
        </Field>
        <div className="filter-buttons">
          <button type="submit" className="primary">
            {t.applyFilters}
          </button>
          <Link href={href('subscriptions')} className="button">
            {t.clearFilters}
          </Link>
        </div>
      </form>
      <div className="toolbar">
        <a className="button" href={api.services.csvHref(applied)} download>
          {t.subExportCsv}
        </a>
      </div>
      {!can('autoRenew') && <p className="note note-forbidden">{t.roleCannot}</p>}
      <Outcome result={action.result} />
      {dialog && <LineDialog sub={dialog.sub} action={dialog.action} onClose={() => setDialog(null)} run={(f) => void action.run(f)} />}
      <Loading what={list} />
      {list.data && (
        <>
          {list.data.dueDatesUnavailable && (
            <p role="status" className="note note-error" data-testid="due-dates-unavailable">
              {t.subDueDatesUnavailable}
            </p>
          )}
          <Table
            caption={t.subscriptionsCaption}
            hideCaption
            cards
            columns={columns}
            rows={list.data.services}
            rowKey={(s) => s.serviceId}
          />
          <Pager page={pages.page} hasPrev={pages.page > 1} nextCursor={list.data.nextCursor} onPrev={pages.prev} onNext={pages.next} />
        </>
      )}
    </>
  );
}
