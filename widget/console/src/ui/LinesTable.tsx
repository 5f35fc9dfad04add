// A customer's lines (services) with the panel actions: suspend, unsuspend, extend (support, owner;
// not when WHMCS bills the lines) and terminate (owner). Used on the order and the customer pages.
import { useState } from 'react';
import { useConsole } from '../context';
import { formatDay, formatTime } from '../format';
import { t } from '../messages';
import { href, Link } from '../router';
import type { Line } from '../schemas';
import { Id } from './Id';
import { ConfirmButton, Outcome, Status, Table, useAction } from './index';

function ExtendForm({ line, disabled, onExtend }: { line: Line; disabled: boolean; onExtend: (days: number) => void }) {
  const [days, setDays] = useState('30');
  const id = `extend-${line.serviceId}`;
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(days);
        if (Number.isInteger(n) && n > 0) onExtend(n);
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {t.extendDaysLabel(line.serviceId)}
      </label>
      <input
        id={id}
        type="number"
        min={1}
        max={3660}
        value={days}
        onChange={(e) => setDays(e.target.value)}
        className="days"
        disabled={disabled}
      />
      <button type="submit" disabled={disabled}>
        {t.extend}
      </button>
    </form>
  );
}

export function LinesTable({ lines, onChanged }: { lines: Line[]; onChanged: () => void }) {
  const { api, can, billedHere } = useConsole();
  const action = useAction(onChanged);
  const status = (l: Line) => l.status.toLowerCase();
  const act = (l: Line, what: 'suspend' | 'unsuspend' | 'terminate') =>
    action.run(async () => {
      await api.services.act(l.serviceId, what);
      return t.lineDone(what, l.serviceId);
    });
  return (
    <>
      <Outcome result={action.result} />
      <Table
        caption={t.linesCaption}
        hideCaption
        rows={lines}
        rowKey={(l) => l.serviceId}
        columns={[
          {
            header: t.colService,
            // The line in Subscriptions (found by its id), where its plan and renewal are changed.
            cell: (l) => (
              <Link href={href('subscriptions', { q: l.serviceId })}>
                <Id value={l.serviceId} />
              </Link>
            ),
          },
          {
            header: t.colOrder,
            cell: (l) => (
              <Link href={href(`orders/${encodeURIComponent(l.orderId)}`)}>
                <Id value={l.orderId} />
              </Link>
            ),
          },
          { header: t.colProduct, cell: (l) => l.name },
          { header: t.colStatus, cell: (l) => <Status value={l.status} /> },
          { header: t.colUsername, cell: (l) => <code>{l.username}</code> },
          { header: t.colPassword, cell: (l) => <code>{l.password}</code> },
          { header: t.colExpires, cell: (l) => formatTime(l.expiresAt) },
          { header: t.colNextDue, cell: (l) => formatDay(l.nextDueDate) },
          {
            header: t.colActions,
            // The panel acts on provisioned lines only: pending, cancelled or terminated ones have nothing to act on.
            cell: (l) =>
              !['active', 'overdue', 'suspended'].includes(status(l)) ? (
                '—'
              ) : (
                <span className="actions">
                  {status(l) === 'suspended' ? (
                    <button type="button" disabled={!can('unsuspend') || action.busy} onClick={() => act(l, 'unsuspend')}>
                      {t.unsuspend}
                    </button>
                  ) : (
                    <button type="button" disabled={!can('suspend') || action.busy} onClick={() => act(l, 'suspend')}>
                      {t.suspend}
                    </button>
                  )}
                  {billedHere && (
                    <ExtendForm
                      line={l}
                      disabled={!can('extend') || action.busy}
                      onExtend={(days) =>
                        action.run(async () => {
                          await api.services.extend(l.serviceId, days);
                          return t.extended(l.serviceId, days);
                        })
                      }
                    />
                  )}
                  <ConfirmButton
                    label={t.terminate}
                    confirmLabel={t.confirmTerminate}
                    disabled={!can('terminate') || action.busy}
                    onConfirm={() => act(l, 'terminate')}
                  />
                </span>
              ),
          },
        ]}
      />
    </>
  );
}
