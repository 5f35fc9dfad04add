// The catalog as a form (issue 26): plans (name, trial, extras, proxy, prices per cycle and
// currency), the two add-ons, promotions (products by name, dates, uses, recurring, switched off,
// an expired one marked expired) and the storefronts. The form holds a copy of GET
// /admin/catalog's form; the server writes it into the YAML (POST /admin/catalog/draft), keeping
// every field the form does not show.
import { useState, type FormEvent } from 'react';
import { t } from '../messages';
import type { CatalogForm as Form, FormOption } from '../schemas';
import { Field, Status } from '../ui';
import { DateField } from '../ui/DateField';

type Prices = Record<string, Record<string, string>>;

/** withPrice is prices with cycle × currency set to value (an empty value removes it). */
export function withPrice(prices: Prices, cycle: string, currency: string, value: string): Prices {
  const row = { ...(prices[cycle] ?? {}) };
  if (value.trim() === '') delete row[currency];
  else row[currency] = value.trim();
  const out = { ...prices, [cycle]: row };
  if (Object.keys(row).length === 0) delete out[cycle];
  return out;
}

function PriceGrid({
  what,
  form,
  prices,
  readOnly,
  onChange,
}: {
  what: string;
  form: Form;
  prices: Prices;
  readOnly: boolean;
  onChange: (p: Prices) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="price-grid">
        <caption>{t.pricesCaption(what)}</caption>
        <thead>
          <tr>
            <th scope="col">{t.colCycle}</th>
            {form.currencies.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {form.cycles.map((cycle) => (
            <tr key={cycle}>
              <th scope="row">{t.cycleNames[cycle] ?? cycle}</th>
              {form.currencies.map((cur) => (
                <td key={cur}>
                  <input
                    aria-label={`${what} ${t.priceLabel(t.cycleNames[cycle] ?? cycle, cur)}`}
                    inputMode="decimal"
                    size={8}
                    value={prices[cycle]?.[cur] ?? ''}
                    readOnly={readOnly}
                    onChange={(e) => onChange(withPrice(prices, cycle, cur, e.target.value))}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OptionFields({
  heading,
  option,
  form,
  readOnly,
  onChange,
}: {
  heading: string;
  option: FormOption;
  form: Form;
  readOnly: boolean;
  onChange: (o: FormOption) => void;
}) {
  return (
    <fieldset className="card">
      <legend>{heading}</legend>
      {option.id === 2 && (
        <Field label={t.maxQtyLabel}>
          {(id) => (
            <input
              id={id}
              type="number"
              min={1}
              value={option.maxQty}
              readOnly={readOnly}
              onChange={(e) => onChange({ ...option, maxQty: Number(e.target.value) || 0 })}
            />
          )}
        </Field>
      )}
      <PriceGrid
        what={option.name}
        form={form}
        prices={option.prices}
        readOnly={readOnly}
        onChange={(p) => onChange({ ...option, prices: p })}
      />
    </fieldset>
  );
}

/** OriginsField edits a list one per line, keeping the text as typed (blank lines too). */
function OriginsField({ origins, readOnly, onChange }: { origins: string[]; readOnly: boolean; onChange: (o: string[]) => void }) {
  const [text, setText] = useState(origins.join('\n'));
  return (
    <Field label={t.allowedOriginsLabel} hint={t.allowedOriginsHint}>
      {(id, hint) => (
        <textarea
          id={id}
          aria-describedby={hint}
          rows={Math.max(2, origins.length + 1)}
          value={text}
          readOnly={readOnly}
          onChange={(e) => {
            setText(e.target.value);
            onChange(
              e.target.value
                .split('\n')
                .map((x) => x.trim())
                .filter(Boolean),
            );
          }}
        />
      )}
    </Field>
  );
}

export function CatalogForm({
  initial,
  readOnly,
  busy,
  onReview,
}: {
  initial: Form;
  readOnly: boolean;
  busy: boolean;
  onReview: (form: Form) => void;
}) {
  const [form, setForm] = useState<Form>(() => structuredClone(initial));
  const [generation, setGeneration] = useState(0);
  const plan = (i: number, over: Partial<Form['plans'][number]>) =>
    setForm((f) => ({ ...f, plans: f.plans.map((p, j) => (j === i ? { ...p, ...over } : p)) }));
  const promo = (i: number, over: Partial<Form['promotions'][number]>) =>
    setForm((f) => ({ ...f, promotions: f.promotions.map((p, j) => (j === i ? { ...p, ...over } : p)) }));
  const front = (i: number, over: Partial<Form['storefronts'][number]>) =>
    setForm((f) => ({ ...f, storefronts: f.storefronts.map((p, j) => (j === i ? { ...p, ...over } : p)) }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onReview(form);
  };
  const products = form.plans.map((p) => ({ pid: p.pid, name: p.name }));

  return (
    <form onSubmit={submit} data-testid="catalog-form-editor" className="catalog-editor">
      <section aria-labelledby="plans-h">
        <h2 id="plans-h">{t.plansHeading}</h2>
        {form.plans.map((p, i) => (
          <fieldset key={p.pid} className="card" data-testid={`plan-${p.pid}`}>
            <legend>{t.planHeading(p.name, p.pid)}</legend>
            <Field label={t.planNameLabel}>
              {(id) => <input id={id} value={p.name} readOnly={readOnly} onChange={(e) => plan(i, { name: e.target.value })} />}
            </Field>
            <div className="checks">
              <label>
                <input type="checkbox" checked={p.trial} disabled={readOnly} onChange={(e) => plan(i, { trial: e.target.checked })} />{' '}
                {t.planTrialLabel}
              </label>
              {form.extras && (
                <label>
                  <input type="checkbox" checked={p.extras} disabled={readOnly} onChange={(e) => plan(i, { extras: e.target.checked })} />{' '}
                  {t.planExtrasLabel}
                </label>
              )}
              {form.proxy && (
                <label>
                  <input type="checkbox" checked={p.proxy} disabled={readOnly} onChange={(e) => plan(i, { proxy: e.target.checked })} />{' '}
                  {t.planProxyLabel}
                </label>
              )}
            </div>
            <p className="muted">{t.pricesHint(form.defaultCurrency)}</p>
            <PriceGrid what={p.name} form={form} prices={p.prices} readOnly={readOnly} onChange={(prices) => plan(i, { prices })} />
          </fieldset>
        ))}
      </section>

      {(form.extras || form.proxy) && (
        <section aria-labelledby="addons-h">
          <h2 id="addons-h">{t.addonsHeading}</h2>
          {form.extras && (
            <OptionFields
              heading={t.extrasHeading}
              option={form.extras}
              form={form}
              readOnly={readOnly}
              onChange={(o) => setForm((f) => ({ ...f, extras: o }))}
            />
          )}
          {form.proxy && (
            <OptionFields
              heading={t.proxyHeading}
              option={form.proxy}
              form={form}
              readOnly={readOnly}
              onChange={(o) => setForm((f) => ({ ...f, proxy: o }))}
            />
          )}
        </section>
      )}

      <section aria-labelledby="form-promos-h">
        <h2 id="form-promos-h">{t.navPromotions}</h2>
        {form.promotions.map((p, i) => (
          <fieldset key={p.code} className="card" data-testid={`promo-${p.code}`}>
            <legend>
              <code>{p.code}</code> <Status value={p.status ?? 'active'} />
            </legend>
            <p className="muted">
              {(t.promoTypes as Record<string, string>)[p.type] ?? p.type} {p.value}
            </p>
            <fieldset className="checks">
              <legend>{t.promoProductsLabel}</legend>
              {products.map((pr) => (
                <label key={pr.pid}>
                  <input
                    type="checkbox"
                    checked={p.appliesTo.includes(pr.pid)}
                    disabled={readOnly}
                    onChange={(e) =>
                      promo(i, {
                        appliesTo: e.target.checked
                          ? [...p.appliesTo, pr.pid].sort((a, b) => a - b)
                          : p.appliesTo.filter((x) => x !== pr.pid),
                      })
                    }
                  />{' '}
                  {pr.name}
                </label>
              ))}
            </fieldset>
            <div className="row">
              <DateField
                label={t.promoStartLabel}
                value={p.startDate}
                readOnly={readOnly}
                onChange={(startDate) => promo(i, { startDate })}
              />
              <DateField
                label={t.promoEndLabel}
                value={p.expirationDate}
                readOnly={readOnly}
                onChange={(expirationDate) => promo(i, { expirationDate })}
              />
              <Field label={t.promoMaxUsesLabel} hint={t.promoMaxUsesHint}>
                {(id, hint) => (
                  <input
                    id={id}
                    aria-describedby={hint}
                    type="number"
                    min={0}
                    value={p.maxUses}
                    readOnly={readOnly}
                    onChange={(e) => promo(i, { maxUses: Math.max(0, Number(e.target.value) || 0) })}
                  />
                )}
              </Field>
            </div>
            <div className="checks">
              <label>
                <input
                  type="checkbox"
                  checked={p.recurring}
                  disabled={readOnly}
                  onChange={(e) => promo(i, { recurring: e.target.checked })}
                />{' '}
                {t.promoRecurringLabel}
              </label>
              <label>
                <input
                  type="checkbox"
                  checked={p.disabled}
                  disabled={readOnly}
                  onChange={(e) => promo(i, { disabled: e.target.checked })}
                />{' '}
                {t.promoDisabledLabel}
              </label>
            </div>
          </fieldset>
        ))}
      </section>

      <section aria-labelledby="fronts-h">
        <h2 id="fronts-h">{t.storefrontsHeading}</h2>
        {form.storefronts.map((s, i) => (
          <fieldset key={`${generation}-${s.key}`} className="card">
            <legend>{t.storefrontHeading(s.name, s.key)}</legend>
            {s.default && <p className="muted">{t.storefrontDefaultNote}</p>}
            <Field label={t.planNameLabel}>
              {(id) => <input id={id} value={s.name} readOnly={readOnly} onChange={(e) => front(i, { name: e.target.value })} />}
            </Field>
            <div className="row">
              <Field label={t.defaultCurrencyLabel}>
                {(id) => (
                  <select
                    id={id}
                    value={s.defaultCurrency}
                    disabled={readOnly}
                    onChange={(e) => front(i, { defaultCurrency: e.target.value })}
                  >
                    <option value="">{t.sameAsBuyer}</option>
                    {form.currencies.map((c) => (
                      <option key={c}>{c}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label={t.defaultLocaleLabel}>
                {(id) => (
                  <input
                    id={id}
                    value={s.defaultLocale}
                    placeholder={t.sameAsBuyer}
                    readOnly={readOnly}
                    onChange={(e) => front(i, { defaultLocale: e.target.value.trim() })}
                  />
                )}
              </Field>
            </div>
            <OriginsField origins={s.allowedOrigins} readOnly={readOnly} onChange={(allowedOrigins) => front(i, { allowedOrigins })} />
          </fieldset>
        ))}
      </section>

      <div className="toolbar sticky-actions">
        <button type="submit" className="primary" disabled={readOnly || busy}>
          {t.reviewChanges}
        </button>
        <button
          type="button"
          disabled={readOnly || busy}
          onClick={() => {
            setForm(structuredClone(initial));
            setGeneration((g) => g + 1);
          }}
        >
          {t.discardChanges}
        </button>
      </div>
    </form>
  );
}
