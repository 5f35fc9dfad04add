// Promotions (GET/POST /admin/promotions, PATCH /admin/promotions/{code}) with their usage: the
// owner creates one, switches one off or on, moves its dates and changes its use limit.
import { useState, type FormEvent } from 'react';
import type { PromotionPatch } from '../api';
import { useConsole } from '../context';
import { formatDay, formatMoney, formatPercent } from '../format';
import { t } from '../messages';
import { PROMO_TYPES, type Promotion } from '../schemas';
import { ErrorNote, Field, Loading, Outcome, Status, Table, useAction, useLoad } from '../ui';
import { DateField } from '../ui/DateField';
import { ApiError } from '../api';

function Problems({ error }: { error: unknown }) {
  if (!(error instanceof ApiError) || !error.problems.length) return <ErrorNote error={error} />;
  return (
    <div role="alert" className="note note-error">
      <ul>
        {error.problems.map((p, i) => (
          <li key={i}>
            <code>{p.path}</code>: {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** promoValue is a promotion's value as the console shows all money and percentages; a value it cannot read stays as written. */
const promoValue = (p: Promotion) =>
  p.amount
    ? formatMoney(p.amount)
    : p.type === 'Percentage' && /^\d+(\.\d+)?$/.test(p.value)
      ? formatPercent(Number(p.value) / 100)
      : p.value;

const EMPTY = { code: '', type: 'Percentage', value: '', appliesTo: '', startDate: '', expirationDate: '', maxUses: '', recurring: false };

function CreateForm({ onDone }: { onDone: () => void }) {
  const { api } = useConsole();
  const [f, setF] = useState(EMPTY);
  const action = useAction(onDone);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      const p = await api.promotions.create({
        code: f.code.trim(),
        type: f.type,
        value: f.value.trim(),
        appliesTo: f.appliesTo
          .split(/[\s,]+/)
          .filter(Boolean)
          .map(Number),
        startDate: f.startDate || undefined,
        expirationDate: f.expirationDate || undefined,
        maxUses: f.maxUses ? Number(f.maxUses) : undefined,
        recurring: f.recurring,
      });
      setF(EMPTY);
      return t.promotionCreated(p.code);
    });
  };
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  return (
    <form className="card filters" onSubmit={submit} aria-labelledby="promo-new-h" data-testid="promotion-create">
      <h2 id="promo-new-h">{t.newPromotionHeading}</h2>
      <Field label={t.promoCodeLabel}>{(id) => <input id={id} required maxLength={32} value={f.code} onChange={set('code')} />}</Field>
      <Field label={t.promoTypeLabel}>
        {(id) => (
          <select id={id} value={f.type} onChange={set('type')}>
            {PROMO_TYPES.map((p) => (
              <option key={p} value={p}>
                {t.promoTypes[p]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t.promoValueLabel} hint={t.promoValueHint}>
        {(id, hint) => <input id={id} aria-describedby={hint} required value={f.value} onChange={set('value')} />}
      </Field>
      <Field label={t.promoAppliesLabel} hint={t.promoAppliesHint}>
        {(id, hint) => <input id={id} aria-describedby={hint} value={f.appliesTo} onChange={set('appliesTo')} />}
      </Field>
      <DateField label={t.promoStartLabel} value={f.startDate} onChange={(startDate) => setF({ ...f, startDate })} />
      <DateField label={t.promoEndLabel} value={f.expirationDate} onChange={(expirationDate) => setF({ ...f, expirationDate })} />
      <Field label={t.promoMaxUsesLabel} hint={t.promoMaxUsesHint}>
        {(id, hint) => <input id={id} aria-describedby={hint} type="number" min={0} value={f.maxUses} onChange={set('maxUses')} />}
      </Field>
      <div className="check">
        <input id="promo-recurring" type="checkbox" checked={f.recurring} onChange={(e) => setF({ ...f, recurring: e.target.checked })} />
        <label htmlFor="promo-recurring">{t.promoRecurringLabel}</label>
      </div>
      {action.result && 'error' in action.result ? <Problems error={action.result.error} /> : <Outcome result={action.result} />}
      <div className="filter-buttons">
        <button type="submit" className="primary" disabled={action.busy}>
          {t.createPromotion}
        </button>
      </div>
    </form>
  );
}

function EditForm({ promo, onDone, onClose }: { promo: Promotion; onDone: () => void; onClose: () => void }) {
  const { api } = useConsole();
  const [f, setF] = useState({ startDate: promo.startDate, expirationDate: promo.expirationDate, maxUses: String(promo.maxUses) });
  const action = useAction(onDone);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const patch: PromotionPatch = { startDate: f.startDate, expirationDate: f.expirationDate, maxUses: Number(f.maxUses) || 0 };
    void action.run(async () => {
      await api.promotions.update(promo.code, patch);
      return t.promotionSaved(promo.code);
    });
  };
  return (
    <form className="card filters" onSubmit={submit} aria-labelledby="promo-edit-h" data-testid="promotion-edit">
      <h2 id="promo-edit-h">{t.editPromotionHeading(promo.code)}</h2>
      <DateField label={t.promoStartLabel} value={f.startDate} onChange={(startDate) => setF({ ...f, startDate })} />
      <DateField label={t.promoEndLabel} value={f.expirationDate} onChange={(expirationDate) => setF({ ...f, expirationDate })} />
      <Field label={t.promoMaxUsesLabel} hint={t.promoMaxUsesHint}>
        {(id, hint) => (
          <input
            id={id}
            aria-describedby={hint}
            type="number"
            min={0}
            value={f.maxUses}
            onChange={(e) => setF({ ...f, maxUses: e.target.value })}
          />
        )}
      </Field>
      {action.result && 'error' in action.result ? <Problems error={action.result.error} /> : <Outcome result={action.result} />}
      <div className="filter-buttons">
        <button type="submit" className="primary" disabled={action.busy}>
          {t.save}
        </button>
        <button type="button" onClick={onClose}>
          {t.close}
        </button>
      </div>
    </form>
  );
}

export function Promotions() {
  const { api, can } = useConsole();
  const list = useLoad(() => api.promotions.list(), 'promotions');
  const toggle = useAction(list.reload);
  const [editing, setEditing] = useState<string | null>(null);
  const edited = list.data?.promotions.find((p) => p.code === editing);
  return (
    <>
      {!can('editPromotions') && <p className="note note-forbidden">{t.roleCannot}</p>}
      <Outcome result={toggle.result} />
      <Loading what={list} />
      {list.data && (
        <Table
          caption={t.promotionsCaption}
          hideCaption
          cards
          rows={list.data.promotions}
          rowKey={(p) => p.code}
          columns={[
            { header: t.colCode, cell: (p) => <code>{p.code}</code> },
            { header: t.colType, cell: (p) => (t.promoTypes as Record<string, string>)[p.type] ?? p.type },
            { header: t.colValue, cell: (p) => promoValue(p), numeric: true },
            {
              header: t.colProducts,
              cell: (p) => (p.appliesTo.length ? (p.products.length ? p.products : p.appliesTo).join(', ') : t.allProducts),
            },
            {
              header: t.colDates,
              cell: (p) => `${p.startDate ? formatDay(p.startDate) : '…'} – ${p.expirationDate ? formatDay(p.expirationDate) : '…'}`,
            },
            { header: t.colUses, cell: (p) => (p.maxUses ? `${p.uses} / ${p.maxUses}` : String(p.uses)), numeric: true },
            { header: t.colRecurring, cell: (p) => (p.recurring ? t.yes : t.no) },
            { header: t.colStatus, cell: (p) => <Status value={p.disabled ? 'disabled' : p.status} /> },
            {
              header: t.colActions,
              cell: (p) => (
                <span className="actions">
                  <button
                    type="button"
                    disabled={!can('editPromotions') || toggle.busy}
                    onClick={() =>
                      toggle.run(async () => {
                        await api.promotions.update(p.code, { disabled: !p.disabled });
                        return p.disabled ? t.promotionEnabled(p.code) : t.promotionDisabled(p.code);
                      })
                    }
                  >
                    {p.disabled ? t.enable : t.disable}
                  </button>
                  <button type="button" disabled={!can('editPromotions')} onClick={() => setEditing(p.code)}>
                    {t.edit}
                  </button>
                </span>
              ),
            },
          ]}
        />
      )}
      {edited && <EditForm key={edited.code} promo={edited} onDone={list.reload} onClose={() => setEditing(null)} />}
      {can('editPromotions') && <CreateForm onDone={list.reload} />}
    </>
  );
}
