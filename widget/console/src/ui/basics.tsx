// The console's smallest parts, kept apart from the tables (ui/index.tsx) so the sign-in page and
// the shell load without the table library: error notes in the operator's words and a labelled field.
import { useId, type ReactNode } from 'react';
import { ApiError } from '../api';
import { t } from '../messages';

/** Errors whose message the server words with what is left (extend_limit: the days that remain). */
const SERVER_WORDED = new Set(['extend_limit', 'invalid_change']);

/** errorText is the operator's text for a failure: the contract's error name looked up, else its message. */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) {
    if (SERVER_WORDED.has(e.code) && e.message) return e.message;
    const known = (t.errors as Record<string, string>)[e.code];
    if (known) return known;
    return t.errorUnknown(e.code, e.message);
  }
  return t.errorUnknown('error', e instanceof Error ? e.message : String(e));
}

/** ErrorNote shows a failure; 403 forbidden says plainly that the role may not do it. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const forbidden = error instanceof ApiError && error.code === 'forbidden';
  return (
    <div role="alert" className={forbidden ? 'note note-forbidden' : 'note note-error'} data-testid={forbidden ? 'forbidden' : 'error'}>
      {errorText(error)}
    </div>
  );
}

/** Field is a labelled input; hint and error are tied to it for screen readers. */
export function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string, describedBy?: string) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id, hintId)}
      {hint && (
        <span id={hintId} className="hint">
          {hint}
        </span>
      )}
    </div>
  );
}
