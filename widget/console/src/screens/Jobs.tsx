// The job queue (GET /admin/jobs?state=): retry (support, owner) and cancel (owner).
import { useConsole } from '../context';
import { formatTime } from '../format';
import { t } from '../messages';
import { href, navigate, useRoute } from '../router';
import { ConfirmButton, Loading, Outcome, Status, Table, useAction, useLoad } from '../ui';
import { jobKindName } from '../ui/timeline';

/** JobKind names a job's kind in the console's language, with the kind as `streamcart jobs list --kind` takes it. */
function JobKind({ kind }: { kind: string }) {
  const name = jobKindName(kind);
  if (name === kind) return <>{kind}</>;
  return (
    <span className="stack">
      <span>{name}</span>
      <code className="sub">{kind}</code>
    </span>
  );
}

const STATES = ['', 'queued', 'failed', 'dead'] as const;

export function Jobs() {
  const { api, can } = useConsole();
  const state = useRoute().query.get('state') ?? '';
  const list = useLoad(() => api.jobs.list({ state, limit: 200 }), state);
  const action = useAction(list.reload);
  return (
    <>
      <div className="toolbar">
        <label htmlFor="job-state">{t.jobStateLabel}</label>
        <select id="job-state" value={state} onChange={(e) => navigate(href('jobs', { state: e.target.value }))}>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s ? t.jobStates[s] : t.allJobs}
            </option>
          ))}
        </select>
      </div>
      <Outcome result={action.result} />
      <Loading what={list} />
      {list.data && (
        <Table
          caption={t.jobsCaption}
          hideCaption
          rows={list.data.jobs}
          rowKey={(j) => j.id}
          columns={[
            { header: t.colJob, cell: (j) => j.id, numeric: true },
            { header: t.colKind, cell: (j) => <JobKind kind={j.kind} /> },
            { header: t.colRef, cell: (j) => <code>{j.ref}</code> },
            { header: t.colState, cell: (j) => <Status value={j.state} /> },
            { header: t.colAttempts, cell: (j) => j.attempts, numeric: true },
            { header: t.colRunAt, cell: (j) => formatTime(j.runAt) },
            { header: t.colLastError, cell: (j) => j.lastError || '—' },
            {
              header: t.colActions,
              cell: (j) =>
                j.state === 'running' || j.state === 'done' ? (
                  '—'
                ) : (
                  <span className="actions">
                    <button
                      type="button"
                      disabled={!can('retryJob') || action.busy}
                      onClick={() =>
                        action.run(async () => {
                          await api.jobs.retry(j.id);
                          return t.jobRetried(j.id);
                        })
                      }
                    >
                      {t.retry}
                    </button>
                    {j.state !== 'cancelled' && (
                      <ConfirmButton
                        label={t.cancelJob}
                        confirmLabel={t.confirmCancelJob}
                        disabled={!can('cancelJob') || action.busy}
                        onConfirm={() =>
                          action.run(async () => {
                            await api.jobs.cancel(j.id);
                            return t.jobCancelled(j.id);
                          })
                        }
                      />
                    )}
                  </span>
                ),
            },
          ]}
        />
      )}
    </>
  );
}
