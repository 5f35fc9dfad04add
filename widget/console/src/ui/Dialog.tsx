// Dialog is the console's modal: the native <dialog> opened with showModal(), so the browser
// traps focus inside it, makes the page behind inert, and Escape cancels (no script or style from
// elsewhere: CSP-safe). The title labels it and the description describes it for screen readers;
// closing gives the focus back to what opened it.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { t } from '../messages';

export function Dialog({
  title,
  description,
  onClose,
  children,
}: {
  title: string;
  /** The effect, read out when the dialog opens. */
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const opener = document.activeElement as HTMLElement | null;
    // jsdom has no showModal: the open attribute shows it there.
    if (typeof d.showModal === 'function') d.showModal();
    else d.setAttribute('open', '');
    const cancel = (e: Event) => {
      e.preventDefault();
      onCloseRef.current();
    };
    d.addEventListener('cancel', cancel);
    return () => {
      d.removeEventListener('cancel', cancel);
      if (typeof d.close === 'function' && d.open) d.close();
      opener?.focus?.();
    };
  }, []);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} aria-describedby={description ? descId : undefined}>
      <h2 id={titleId}>{title}</h2>
      {description && (
        <div id={descId} className="dialog-effect">
          {description}
        </div>
      )}
      {children}
    </dialog>
  );
}

/**
 * ConfirmDialog asks before an action, naming its effect: Confirm runs it, Keep (or Escape)
 * closes without doing anything. Confirm has the focus first.
 */
export function ConfirmDialog({
  title,
  effect,
  confirmLabel,
  onConfirm,
  onClose,
  danger = true,
  children,
}: {
  title: string;
  effect: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  danger?: boolean;
  children?: ReactNode;
}) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  return (
    <Dialog title={title} description={effect} onClose={onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          onClose();
          onConfirm();
        }}
      >
        {children}
        <div className="dialog-buttons">
          <button type="submit" ref={confirmRef} className={danger ? 'danger' : 'primary'}>
            {confirmLabel}
          </button>
          <button type="button" onClick={onClose}>
            {t.keep}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
