// The console's building blocks: data loading, error notes, plain tables, paging, buttons that run
// an action and say how it went. Plain HTML elements throughout, so the keyboard and screen
// readers get what browsers give them.
import { tableFeatures, useTable, type CellContext, type ColumnDef, type RowData } from '@tanstack/react-table';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { t } from '../messages';
import { ErrorNote } from './basics';

export { ErrorNote, errorText, Field } from './basics';

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** useLoad runs load when key changes (and on reload()); a stale answer never overwrites a newer one. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({ data: null, error: null, loading: true });
  const [n, setN] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    loadRef.current().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: unknown) => live && setState({ data: null, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, n]);
  const reload = useCallback(() => setN((x) => x + 1), []);
  return { ...state, reload };
}

export function Loading({ what }: { what: Loaded<unknown> }) {
  if (what.error) return <ErrorNote error={what.error} />;
  if (what.loading && !what.data)
    return (
      <p className="muted" role="status">
        {t.loading}
      </p>
    );
  return null;
}

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Right-aligned numbers. */
  numeric?: boolean;
}

// No table state is registered (no sorting, filtering or paging: the screens page on the server),
// so the library only builds the rows and cells; stable at module scope as it asks.
const tableCore = tableFeatures({});

type CellDef<T extends RowData> = ColumnDef<typeof tableCore, T> & { render: Column<T>['cell'] };

// One cell component for every column: FlexRender mounts a function as a component, and a new
// function each render would remount the cell and lose what is typed into it.
function ColumnCell<T extends RowData>({ row, column }: CellContext<typeof tableCore, T, unknown>) {
  return (column.columnDef as CellDef<T>).render(row.original);
}

/** Table is a plain table with a caption, its rows and cells from @tanstack/react-table; an empty list says so in a row. */
export function Table<T extends RowData>({
  caption,
  columns,
  rows,
  rowKey,
  hideCaption = false,
  cards = true,
}: {
  caption: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  hideCaption?: boolean;
  /** On a narrow screen each row shows as a card, every cell labelled by its column (styles.css); false keeps a scrolling table. */
  cards?: boolean;
}) {
  const defs = useMemo(
    () => columns.map((c): CellDef<T> => ({ id: c.header, header: c.header, cell: ColumnCell, render: c.cell })),
    [columns],
  );
  const table = useTable({ features: tableCore, columns: defs, data: rows, getRowId: (r) => String(rowKey(r)) });
  const numeric = (i: number) => (columns[i]?.numeric ? 'num' : undefined);
  return (
    <div className={cards ? 'table-wrap cards' : 'table-wrap'}>
      <table>
        <caption className={hideCaption ? 'visually-hidden' : undefined}>{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {g.headers.map((h) => (
                <th key={h.id} scope="col" className={numeric(h.index)}>
                  <table.FlexRender header={h} />
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="muted">
                {t.emptyTable}
              </td>
            </tr>
          ) : (
            table.getRowModel().rows.map((r) => (
              <tr key={r.id}>
                {r.getAllCells().map((c, i) => (
                  <td key={c.id} className={numeric(i)} data-label={c.column.id}>
                    <table.FlexRender cell={c} />
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * useCursorPages keeps keyset paging state: the cursor of the page shown and those before it, so
 * Previous goes back without offsets. It resets when the filters (key) change.
 */
export function useCursorPages(key: string) {
  const [stack, setStack] = useState<string[]>([]);
  const [cursor, setCursor] = useState('');
  const [prevKey, setPrevKey] = useState(key);
  if (key !== prevKey) {
    setPrevKey(key);
    setStack([]);
    setCursor('');
  }
  return {
    cursor,
    page: stack.length + 1,
    next: (nextCursor: string) => {
      setStack((s) => [...s, cursor]);
      setCursor(nextCursor);
    },
    prev: () => {
      setStack((s) => {
        setCursor(s[s.length - 1] ?? '');
        return s.slice(0, -1);
      });
    },
  };
}

export function Pager({
  page,
  hasPrev,
  nextCursor,
  onPrev,
  onNext,
}: {
  page: number;
  hasPrev: boolean;
  nextCursor: string;
  onPrev: () => void;
  onNext: (cursor: string) => void;
}) {
  return (
    <nav className="pager" aria-label={t.pagerLabel}>
      <button type="button" onClick={onPrev} disabled={!hasPrev}>
        {t.previousPage}
      </button>
      <span>{t.pageN(page)}</span>
      <button type="button" onClick={() => onNext(nextCursor)} disabled={!nextCursor}>
        {t.nextPage}
      </button>
    </nav>
  );
}

/** Outcome is the polite live region that says how the last action went. */
export function Outcome({ result }: { result: { ok: string } | { error: unknown } | null }) {
  if (!result) return <p className="visually-hidden" role="status" />;
  if ('ok' in result)
    return (
      <p className="note note-ok" role="status">
        {result.ok}
      </p>
    );
  return <ErrorNote error={result.error} />;
}

/**
 * useAction runs one change at a time: busy while it runs, then a result to show (success text or
 * the error) and, on success, the screen's reload.
 */
export function useAction(after?: () => void) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: string } | { error: unknown } | null>(null);
  const run = useCallback(
    async (fn: () => Promise<string>) => {
      setBusy(true);
      setResult(null);
      try {
        const ok = await fn();
        setResult({ ok });
        after?.();
      } catch (error) {
        setResult({ error });
      } finally {
        setBusy(false);
      }
    },
    [after],
  );
  return { busy, result, run, clear: () => setResult(null) };
}

/**
 * ConfirmButton asks once more before an action that cannot be undone: the first press shows
 * "confirm" and "keep" buttons in its place, focus moving to the confirm.
 */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled,
  danger = true,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  danger?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" className={danger ? 'danger' : undefined} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="confirm">
      <button
        type="button"
        ref={confirmRef}
        className="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        {t.keep}
      </button>
    </span>
  );
}

/** Status is a state word with a colour class (never colour alone: the word is the text). */
export function Status({ value }: { value: string }) {
  const tone = /^(active|ok|sent|done|paid)$/i.test(value)
    ? 'good'
    : /^(failed|dead|fraud|cancelled|needs_review|refunded|terminated|disabled|suspended|expired)/i.test(value)
      ? 'bad'
      : 'neutral';
  return <span className={`status status-${tone}`}>{(t.statuses as Record<string, string>)[value] ?? value}</span>;
}
