// Operators (GET /admin/operators): the owner invites one (a one-time setup link) and disables one.
import { useState, type FormEvent } from 'react';
import { useConsole } from '../context';
import { formatTime } from '../format';
import { t } from '../messages';
import { ROLES, type Role } from '../schemas';
import { ConfirmButton, Field, Loading, Outcome, Status, Table, useAction, useLoad } from '../ui';

export function Operators() {
  const { api, can, session } = useConsole();
  const list = useLoad(() => api.operators.list(), 'operators');
  const disable = useAction(list.reload);
  const invite = useAction(list.reload);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('support');
  const [link, setLink] = useState<{ url: string; expires: string } | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLink(null);
    void invite.run(async () => {
      const r = await api.operators.invite({ email: email.trim(), role });
      setLink({ url: r.setupUrl, expires: r.expiresAt });
      setEmail('');
      return t.invited(r.operator.email);
    });
  };
  return (
    <>
      <Outcome result={disable.result} />
      <Loading what={list} />
      {list.data && (
        <Table
          caption={t.operatorsCaption}
          hideCaption
          rows={list.data.operators}
          rowKey={(o) => o.email}
          columns={[
            { header: t.colEmail, cell: (o) => o.email },
            { header: t.colRole, cell: (o) => (t.roles as Record<string, string>)[o.role] ?? o.role },
            { header: t.colStatus, cell: (o) => <Status value={o.status} /> },
            { header: t.colCreated, cell: (o) => formatTime(o.createdAt) },
            { header: t.colDisabled, cell: (o) => formatTime(o.disabledAt) },
            {
              header: t.colActions,
              cell: (o) =>
                o.status === 'disabled' || o.email === session.operator ? (
                  '—'
                ) : (
                  <ConfirmButton
                    label={t.disable}
                    confirmLabel={t.confirmDisableOperator(o.email)}
                    disabled={!can('manageOperators') || disable.busy}
                    onConfirm={() =>
                      disable.run(async () => {
                        await api.operators.disable(o.email);
                        return t.operatorDisabled(o.email);
                      })
                    }
                  />
                ),
            },
          ]}
        />
      )}
      {can('manageOperators') && (
        <form className="card filters" onSubmit={submit} aria-labelledby="invite-h" data-testid="invite">
          <h2 id="invite-h">{t.inviteHeading}</h2>
          <Field label={t.emailLabel}>
            {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
          </Field>
          <Field label={t.colRole}>
            {(id) => (
              <select id={id} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {t.roles[r]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Outcome result={invite.result} />
          {link && (
            <p className="note note-ok">
              {t.setupLinkIs(formatTime(link.expires))}{' '}
              <code className="wrap" data-testid="setup-url">
                {link.url}
              </code>
            </p>
          )}
          <div className="filter-buttons">
            <button type="submit" className="primary" disabled={invite.busy}>
              {t.invite}
            </button>
          </div>
        </form>
      )}
    </>
  );
}
