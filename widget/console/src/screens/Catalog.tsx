// The catalog (GET/PUT /admin/catalog): the YAML or JSON source in a text area, saved as a new
// version after the same validation as `streamcart catalog check`; each problem names its line
// and field path and moves the caret to that line. Earlier versions can be loaded into the editor.
import { useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../api';
import { useConsole } from '../context';
import { formatTime } from '../format';
import { t } from '../messages';
import { ErrorNote, Field, Loading, Outcome, Table, useAction, useLoad } from '../ui';

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

export function Catalog() {
  const { api, can } = useConsole();
  const current = useLoad(() => api.catalog.get(), 'catalog');
  const versions = useLoad(() => api.catalog.versions(), 'versions');
  const [source, setSource] = useState<string | null>(null);
  const [comment, setComment] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);
  const save = useAction(() => {
    current.reload();
    versions.reload();
  });
  const load = useAction();
  const text = source ?? current.data?.source ?? '';
  const problems = save.result && 'error' in save.result && save.result.error instanceof ApiError ? save.result.error.problems : [];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run(async () => {
      const r = await api.catalog.put({ source: text, comment: comment.trim() || undefined });
      setSource(null);
      setComment('');
      return t.catalogSaved(r.version.version);
    });
  };
  const goTo = (line: number) => {
    const el = area.current;
    if (!el || line < 1) return;
    const off = lineOffset(text, line);
    el.focus();
    el.setSelectionRange(off, off);
  };

  return (
    <>
      <Loading what={current} />
      {current.data && (
        <form onSubmit={submit} className="card" data-testid="catalog-form">
          <p className="muted">
            {t.catalogInForce(current.data.version.version, formatTime(current.data.version.createdAt), current.data.version.operator)}
          </p>
          {!can('editCatalog') && <p className="note note-forbidden">{t.roleCannot}</p>}
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
                readOnly={!can('editCatalog')}
                onChange={(e) => setSource(e.target.value)}
              />
            )}
          </Field>
          <Field label={t.commentLabel}>
            {(id) => (
              <input id={id} maxLength={500} value={comment} onChange={(e) => setComment(e.target.value)} disabled={!can('editCatalog')} />
            )}
          </Field>
          {problems.length > 0 ? (
            <div role="alert" className="note note-error" data-testid="catalog-problems">
              <p>{t.catalogInvalid(problems.length)}</p>
              <ul>
                {problems.map((p, i) => (
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
            <Outcome result={save.result} />
          )}
          <div className="toolbar">
            <button type="submit" className="primary" disabled={!can('editCatalog') || save.busy}>
              {t.saveCatalog}
            </button>
            <button type="button" disabled={source === null} onClick={() => setSource(null)}>
              {t.discardChanges}
            </button>
          </div>
        </form>
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
                  <button
                    type="button"
                    onClick={() =>
                      load.run(async () => {
                        setSource((await api.catalog.version(v.version)).source);
                        return '';
                      })
                    }
                  >
                    {t.loadVersion(v.version)}
                  </button>
                ),
              },
            ]}
          />
        )}
      </section>
    </>
  );
}
