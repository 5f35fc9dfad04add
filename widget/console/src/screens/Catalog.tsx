// The catalog (issue 26): edited in a form (CatalogForm) or, under "Advanced", as the YAML or JSON
// source. Either way a draft is reviewed before it is published: POST /admin/catalog/draft writes
// the form into the YAML and diffs it against the version in force, POST /admin/catalog/check
// runs `streamcart catalog check` on it (each problem names its line and field; in Advanced it
// moves the caret there), and Publish is PUT /admin/catalog against the version the draft was made
// from (409 when another was published meanwhile). Every version can be loaded into Advanced or
// rolled back to, after a confirmation.
import { useRef, useState } from 'react';
import { ApiError } from '../api';
import { useConsole } from '../context';
import { ConfirmDialog } from '../ui/Dialog';
import { formatTime } from '../format';
import { t } from '../messages';
import type { CatalogForm as Form } from '../schemas';
import { ErrorNote, Field, Loading, Outcome, Table, useAction, useLoad } from '../ui';
import { CatalogForm } from '../catalog/CatalogForm';

/** lineOffset is the offset of the first character of 1-based line n in text. */
export function lineOffset(text: string, n: number): number {
  let off = 0;
  for (let i = 1; i < n; i++) {
    const next = text.indexOf('\n', off);
    if (next < 0) return text.length;
    off = next + 1;
  }
  return off;
}

interface Review {
  source: string;
  diff: string;
  base: string;
  problems: ApiError['problems'];
}

/** Diff shows a unified diff, each line marked as added, removed or kept. */
function Diff({ text }: { text: string }) {
  return (
    // A scrollable region is reachable by keyboard (axe: scrollable-region-focusable).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <pre className="diff" data-testid="catalog-diff" tabIndex={0}>
      {text
        .replace(/\n$/, '')
        .split('\n')
        .map((l, i) => {
          const kind =
            l.startsWith('+++') || l.startsWith('---') || l.startsWith('@@')
              ? 'meta'
              : l.startsWith('+')
                ? 'add'
                : l.startsWith('-')
                  ? 'del'
                  : 'same';
          return (
            <span key={i} className={`diff-${kind}`}>
              {l}
              {'\n'}
            </span>
          );
        })}
    </pre>
  );
}

export function Catalog() {
  const { api, can } = useConsole();
  const current = useLoad(() => api.catalog.get(), 'catalog');
  const versions = useLoad(() => api.catalog.versions(), 'versions');
  const [mode, setMode] = useState<'form' | 'advanced'>('form');
  const [source, setSource] = useState<string | null>(null);
  const [comment, setComment] = useState('');
  const [review, setReview] = useState<Review | null>(null);
  const [rollback, setRollback] = useState<number | null>(null);
  const [formKey, setFormKey] = useState(0);
  const area = useRef<HTMLTextAreaElement>(null);
  const reload = () => {
    current.reload();
    versions.reload();
  };
  const check = useAction();
  const publish = useAction(reload);
  const roll = useAction(reload);
  const load = useAction();
  const text = source ?? current.data?.source ?? '';
  const editable = can('editCatalog');

  const makeReview = (body: { source?: string; form?: Form }) =>
    check.run(async () => {
      const d = await api.catalog.draft(body);
      let problems: ApiError['problems'] = [];
      try {
        await api.catalog.check(d.source);
      } catch (e) {
        if (!(e instanceof ApiError) || e.code !== 'invalid_catalog') throw e;
        problems = e.problems;
      }
      setReview({ ...d, problems });
      return '';
    });

  const doPublish = () => {
    if (!review) return;
    roll.clear();
    void publish.run(async () => {
      try {
        const r = await api.catalog.put({ source: review.source, comment: comment.trim() || undefined, base: review.base });
        setReview(null);
        setSource(null);
        setComment('');
        setFormKey((k) => k + 1);
        return t.catalogPublished(r.version.version);
      } catch (e) {
        if (e instanceof ApiError && e.code === 'conflict' && e.status === 409) throw new ApiError('catalog_stale', 409, e.message);
        if (e instanceof ApiError && e.code === 'invalid_catalog') setReview({ ...review, problems: e.problems });
        throw e;
      }
    });
  };

  const doRollback = (n: number) => {
    publish.clear();
    return roll.run(async () => {
      const [old, cur] = await Promise.all([api.catalog.version(n), api.catalog.get()]);
      const r = await api.catalog.put({ source: old.source, comment: `rollback to version ${n}`, base: cur.version.sha256 });
      setRollback(null);
      setReview(null);
      setSource(null);
      setFormKey((k) => k + 1);
      return t.rolledBack(n, r.version.version);
    });
  };

  const goTo = (line: number) => {
    if (mode !== 'advanced' && review) {
      setSource(review.source);
      setMode('advanced');
    }
    requestAnimationFrame(() => {
      const el = area.current;
      if (!el || line < 1) return;
      const off = lineOffset(el.value, line);
      el.focus();
      el.setSelectionRange(off, off);
    });
  };

  const data = current.data;
  const inForce = data?.published ? data.version.version : 0;
  return (
    <>
      <Loading what={current} />
      {data && (
        <>
          <p className="muted" data-testid="catalog-in-force">
            {data.published
              ? t.catalogInForce(data.version.version, formatTime(data.version.createdAt), data.version.operator)
              : t.catalogNotPublished}
          </p>
          {!editable && <p className="note note-forbidden">{t.roleCannot}</p>}
          <div className="toolbar" role="group" aria-label={t.catalogModeLabel}>
            <button type="button" aria-pressed={mode === 'form'} onClick={() => setMode('form')} disabled={!data.form}>
              {t.catalogModeForm}
            </button>
            <button type="button" aria-pressed={mode === 'advanced'} onClick={() => setMode('advanced')}>
              {t.catalogModeAdvanced}
            </button>
          </div>
          {mode === 'form' && data.form ? (
            <CatalogForm
              key={`${formKey}-${data.version.sha256}`}
              initial={data.form}
              readOnly={!editable}
              busy={check.busy}
              onReview={(form) => void makeReview({ form })}
            />
          ) : (
            <form
              className="card"
              data-testid="catalog-form"
              onSubmit={(e) => {
                e.preventDefault();
                void makeReview({ source: text });
              }}
            >
              <Field label={t.catalogSourceLabel} hint={t.catalogSourceHint}>
                {(id, hint) => (
                  <textarea
                    id={id}
                    ref={area}
                    aria-describedby={hint}
                    className="source"
                    spellCheck={false}
                    rows={24}
                    value={text}
                    readOnly={!editable}
                    onChange={(e) => setSource(e.target.value)}
                  />
                )}
              </Field>
              <div className="toolbar">
                <button type="submit" className="primary" disabled={!editable || check.busy}>
                  {t.reviewChanges}
                </button>
                <button type="button" disabled={!editable || source === null} onClick={() => setSource(null)}>
                  {t.discardChanges}
                </button>
              </div>
            </form>
          )}
          <ErrorNote error={check.result && 'error' in check.result ? check.result.error : null} />
          {review && (
            <section aria-labelledby="review-h" className="card" data-testid="catalog-review">
              <h2 id="review-h">{t.reviewHeading}</h2>
              {review.diff ? <Diff text={review.diff} /> : <p>{t.noChanges}</p>}
              {review.problems.length > 0 ? (
                <div role="alert" className="note note-error" data-testid="catalog-problems">
                  <p>{t.catalogDraftInvalid(review.problems.length)}</p>
                  <ul>
                    {review.problems.map((p, i) => (
                      <li key={i}>
                        {p.line > 0 ? (
                          <button type="button" className="link" onClick={() => goTo(p.line)}>
                            {t.lineN(p.line)}
                          </button>
                        ) : null}{' '}
                        <code>{p.path}</code>: {p.message}
                      </li>
                    ))}
                  </ul>
                </div>
              ) : (
                <p className="note">{t.catalogChecked}</p>
              )}
              <Field label={t.commentLabel}>
                {(id) => (
                  <input id={id} maxLength={500} value={comment} onChange={(e) => setComment(e.target.value)} disabled={!editable} />
                )}
              </Field>
              <div className="toolbar">
                <button
                  type="button"
                  className="primary"
                  disabled={!editable || publish.busy || review.problems.length > 0 || !review.diff}
                  onClick={doPublish}
                >
                  {t.publish}
                </button>
              </div>
            </section>
          )}
          <Outcome result={roll.result ?? publish.result} />
        </>
      )}
      <section aria-labelledby="versions-h">
        <h2 id="versions-h">{t.versionsHeading}</h2>
        <Loading what={versions} />
        <ErrorNote error={load.result && 'error' in load.result ? load.result.error : null} />
        {versions.data && (
          <Table
            caption={t.versionsHeading}
            hideCaption
            rows={versions.data.versions}
            rowKey={(v) => v.version}
            columns={[
              { header: t.colVersion, cell: (v) => v.version, numeric: true },
              { header: t.colCreated, cell: (v) => formatTime(v.createdAt) },
              { header: t.colOperator, cell: (v) => v.operator || '—' },
              { header: t.colComment, cell: (v) => v.comment || '—' },
              { header: t.colSha, cell: (v) => <code>{v.sha256.slice(0, 12)}</code> },
              {
                header: t.colActions,
                cell: (v) => (
                  <div className="actions">
                    <button
                      type="button"
                      onClick={() =>
                        load.run(async () => {
                          setSource((await api.catalog.version(v.version)).source);
                          setMode('advanced');
                          return '';
                        })
                      }
                    >
                      {t.loadVersion(v.version)}
                    </button>
                    {v.version === inForce ? (
                      <span className="muted">{t.inForce}</span>
                    ) : (
                      <button type="button" disabled={!editable} onClick={() => setRollback(v.version)}>
                        {t.rollBack(v.version)}
                      </button>
                    )}
                  </div>
                ),
              },
            ]}
          />
        )}
      </section>
      <ConfirmDialog
        open={rollback !== null}
        onClose={() => setRollback(null)}
        title={t.rollBackTitle(rollback ?? 0)}
        effect={t.rollBackEffect(rollback ?? 0, inForce)}
        confirmLabel={t.rollBack(rollback ?? 0)}
        busy={roll.busy}
        onConfirm={() => rollback !== null && void doRollback(rollback)}
      >
        <ErrorNote error={roll.result && 'error' in roll.result ? roll.result.error : null} />
      </ConfirmDialog>
    </>
  );
}
