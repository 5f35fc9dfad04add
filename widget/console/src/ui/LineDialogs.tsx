// The Subscriptions screen's line dialogs: a change of plan, cycle, connections or due date
// (POST /admin/services/{id}/change), previewed before it is confirmed so the operator sees what
// it costs now and from the next renewal; and suspend, unsuspend, extend and terminate, each
// asking in a dialog that names its effect.
import { useRef, useState, type FormEvent } from 'react';
import type { ChangeBody } from '../api';
import { useConsole } from '../context';
import { formatDay, formatMoney } from '../format';
import { t, tag } from '../messages';
import type { Charge, LineChange, Subscription } from '../schemas';
import { DateField } from './DateField';
import { ErrorNote, Field } from './index';
import { ConfirmDialog, Dialog } from './Dialog';

const CYCLES = ['monthly', 'quarterly', 'semiannually', 'annually', 'biennially', 'triennially'] as const;

/** newKey names one change for the server (Idempotency-Key): a retry of it never applies twice. */
function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `k-${Date.now()}-${Math.random()}`;
}

interface Draft {
  pid: string;
  billingCycle: string;
  maxConnections: string;
  nextDueDate: string;
  charge: Charge;
  reason: string;
}

/** body is what the draft changes: only the fields that differ from the line's. */
function body(s: Subscription, d: Draft): ChangeBody {
  const b: ChangeBody = { charge: d.charge, reason: d.reason.trim() };
  if (d.pid !== '' && Number(d.pid) !== s.pid) b.pid = Number(d.pid);
  if (d.billingCycle !== s.billingCycle) b.billingCycle = d.billingCycle;
  if (d.maxConnections !== '' && Number(d.maxConnections) !== s.maxConnections) b.maxConnections = Number(d.maxConnections);
  if (d.nextDueDate !== '' && d.nextDueDate !== s.nextDueDate) b.nextDueDate = d.nextDueDate;
  return b;
}

/** cycleInText is a billing cycle inside a sentence ("monthly", "monatlich"). */
const cycleInText = (c: string) => (t.cycleNames[c] ?? c).toLocaleLowerCase(tag());

function terms(x: LineChange['to']): string {
  return t.changeTerms(x.plan, cycleInText(x.billingCycle), x.maxConnections, formatDay(x.nextDueDate));
}

/** ChangeDialog changes a line's terms: the form, its preview (the cost), then the confirmation. */
export function ChangeDialog({ sub, onClose, onDone }: { sub: Subscription; onClose: () => void; onDone: (text: string) => void }) {
  const { api, can } = useConsole();
  const owner = can('change');
  const [draft, setDraft] = useState<Draft>({
    pid: String(sub.pid),
    billingCycle: sub.billingCycle,
    maxConnections: String(sub.maxConnections),
    nextDueDate: sub.nextDueDate,
    charge: owner ? 'now' : 'next-renewal',
    reason: '',
  });
  const [preview, setPreview] = useState<{ quote: LineChange; key: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef(newKey());
  const asked = JSON.stringify(body(sub, draft));
  const fresh = preview !== null && preview.key === asked;

  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  const run = async (confirm: boolean) => {
    setBusy(true);
    setError(null);
    try {
      if (!confirm) {
        const quote = await api.services.change(sub.serviceId, { ...body(sub, draft), preview: true });
        setPreview({ quote, key: asked });
      } else {
        const done = await api.services.change(sub.serviceId, body(sub, draft), key.current);
        onClose();
        onDone(t.changeDone(sub.serviceId, done.charge, done.sentTo));
      }
    } catch (e) {
      setError(e);
      if (!confirm) setPreview(null);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(fresh);
  };
  const q = fresh ? preview.quote : null;

  return (
    <Dialog
      title={t.changeTitle(sub.serviceId)}
      description={t.changeIntro(sub.plan, cycleInText(sub.billingCycle), sub.maxConnections, formatDay(sub.nextDueDate))}
      onClose={onClose}
      dismissable={false}
    >
      <form className="change" onSubmit={submit}>
        <Field label={t.changePidLabel}>
          {(id) => <input id={id} type="number" min={1} className="days" value={draft.pid} onChange={set('pid')} />}
        </Field>
        <Field label={t.changeCycleLabel}>
          {(id) => (
            <select id={id} value={draft.billingCycle} onChange={set('billingCycle')}>
              {CYCLES.map((c) => (
                <option key={c} value={c}>
                  {t.cycleNames[c] ?? c}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t.changeConnectionsLabel}>
          {(id) => <input id={id} type="number" min={1} className="days" value={draft.maxConnections} onChange={set('maxConnections')} />}
        </Field>
        <DateField label={t.changeDueLabel} value={draft.nextDueDate} onChange={(nextDueDate) => setDraft({ ...draft, nextDueDate })} />
        <fieldset>
          <legend>{t.changeChargeLegend}</legend>
          {(
            [
              ['now', t.chargeNow],
              ['next-renewal', t.chargeNextRenewal],
              ['free', t.chargeFree],
            ] as const
          ).map(([value, label]) => {
            const allowed = value === 'next-renewal' || owner;
            return (
              <label key={value} className="radio">
                <input
                  type="radio"
                  name="charge"
                  value={value}
                  checked={draft.charge === value}
                  disabled={!allowed}
                  onChange={() => setDraft({ ...draft, charge: value })}
                />{' '}
                {label} {!allowed && <span className="muted">{t.chargeOwnerOnly}</span>}
              </label>
            );
          })}
        </fieldset>
        <Field label={t.changeReasonLabel}>
          {(id) => <input id={id} type="text" required maxLength={500} value={draft.reason} onChange={set('reason')} />}
        </Field>
        <div className="quote" role="status" aria-live="polite">
          {q ? (
            <>
              <h3>{t.changePreviewHeading}</h3>
              <p>{t.changeEffect(q.charge, formatMoney(q.amount), sub.customer.email, terms(q.to))}</p>
              <dl>
                <dt>{t.changeAmountNow}</dt>
                <dd>
                  {formatMoney(q.amount)}
                  {q.charge === 'now' && ` (${t.changeDaysLeft(q.daysLeft, q.periodDays)})`}
                </dd>
                <dt>{t.changeRecurring}</dt>
                <dd>{t.changeRecurringFromTo(formatMoney(q.recurringAmount), formatMoney(q.newRecurringAmount))}</dd>
              </dl>
            </>
          ) : (
            <p className="muted">{preview ? t.changePreviewStale : t.changePreviewFirst}</p>
          )}
        </div>
        <div className="full">
          <ErrorNote error={error} />
        </div>
        <div className="dialog-buttons">
          {q ? (
            <button type="submit" className="primary" disabled={busy}>
              {t.confirmChange(q.charge, formatMoney(q.amount))}
            </button>
          ) : (
            <button type="submit" className="primary" disabled={busy}>
              {t.changePreview}
            </button>
          )}
          <button type="button" onClick={onClose}>
            {t.cancel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export type LineAction = 'change' | 'suspend' | 'unsuspend' | 'extend' | 'terminate';

/** LineDialog is the open dialog of one line's action. */
export function LineDialog({
  sub,
  action,
  onClose,
  run,
}: {
  sub: Subscription;
  action: LineAction;
  onClose: () => void;
  /** run does the action and answers the outcome's text (useAction's run). */
  run: (f: () => Promise<string>) => void;
}) {
  const { api } = useConsole();
  const [days, setDays] = useState('7');
  const id = sub.serviceId;
  const email = sub.customer.email;
  switch (action) {
    case 'change':
      return <ChangeDialog sub={sub} onClose={onClose} onDone={(text) => run(() => Promise.resolve(text))} />;
    case 'suspend':
    case 'unsuspend':
    case 'terminate': {
      const words: Record<typeof action, [string, string, string]> = {
        suspend: [t.suspendTitle(id), t.suspendEffect(email), t.confirmSuspend],
        unsuspend: [t.unsuspendTitle(id), t.unsuspendEffect(email), t.confirmUnsuspend],
        terminate: [t.terminateTitle(id), t.terminateEffect(email), t.confirmTerminate],
      };
      const [title, effect, confirm] = words[action];
      return (
        <ConfirmDialog
          title={title}
          effect={effect}
          confirmLabel={confirm}
          danger={action !== 'unsuspend'}
          cancelLabel={t.keep}
          onClose={onClose}
          onConfirm={() => {
            onClose();
            run(async () => {
              await api.services.act(id, action);
              return t.lineDone(action, id);
            });
          }}
        />
      );
    }
    case 'extend': {
      const n = Number(days);
      return (
        <ConfirmDialog
          title={t.extendTitle(id)}
          effect={t.extendEffect(sub.nextDueDate && formatDay(sub.nextDueDate))}
          confirmLabel={t.confirmExtend(Number.isInteger(n) && n > 0 ? n : 0)}
          danger={false}
          cancelLabel={t.keep}
          onClose={onClose}
          onConfirm={() => {
            onClose();
            run(async () => {
              await api.services.extend(id, n);
              return t.extended(id, n);
            });
          }}
        >
          <Field label={t.extendDays}>
            {(fid) => (
              <input
                id={fid}
                type="number"
                min={1}
                max={3660}
                required
                className="days"
                value={days}
                onChange={(e) => setDays(e.target.value)}
              />
            )}
          </Field>
        </ConfirmDialog>
      );
    }
  }
}
