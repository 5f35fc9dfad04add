// The console's one dialog, built on react-aria-components (a kept accessible primitive): modal,
// the focus moved in and trapped, Escape (and a click outside, when allowed) asks to close, the
// focus given back to what opened it, the page behind hidden from screen readers and inert. The
// title labels it and the description (the effect) describes it. react-aria sets styles through
// the CSSOM only (element.style), which the console's CSP (style-src 'self', no inline <style>)
// allows; the look is in styles.css (.dialog-overlay, .dialog).
//
// Dialog is the general frame (a form inside: the line change); ConfirmDialog asks before an
// action and names its effect (refund, approve, suspend, extend, terminate).
import { useId, useRef, type FormEvent, type ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { t } from '../messages';

export interface DialogProps {
  /** open shows the dialog; a dialog mounted only while open leaves it at its default, true. */
  open?: boolean;
  /** onClose is asked to close: Cancel, Escape or a click outside; never while busy. */
  onClose: () => void;
  title: string;
  /** The effect, read out as the dialog's description when it opens. */
  description?: ReactNode;
  /** alertdialog for a confirmation that interrupts; dialog for a form. */
  role?: 'dialog' | 'alertdialog';
  /** busy keeps the dialog open (no Escape, no click outside) while its change runs. */
  busy?: boolean;
  /** dismissable lets a click outside close it (not for a form being filled in). */
  dismissable?: boolean;
  children?: ReactNode;
}

export function Dialog({
  open = true,
  onClose,
  title,
  description,
  role = 'dialog',
  busy = false,
  dismissable = true,
  children,
}: DialogProps) {
  const descId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  return (
    <ModalOverlay
      isOpen={open}
      onOpenChange={(isOpen) => {
        if (!isOpen && !busy) onCloseRef.current();
      }}
      isDismissable={dismissable && !busy}
      isKeyboardDismissDisabled={busy}
      className="dialog-overlay"
    >
      <Modal className="dialog">
        <AriaDialog role={role} aria-describedby={description ? descId : undefined} className="dialog-body">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          {description && (
            <div id={descId} className="dialog-effect">
              {description}
            </div>
          )}
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

export interface ConfirmDialogProps {
  open?: boolean;
  onClose: () => void;
  title: string;
  /** The effect of confirming, read out as the dialog's description. */
  effect: ReactNode;
  confirmLabel: string;
  /** onConfirm runs the action; the caller closes the dialog (at once, or when the change ends). */
  onConfirm: () => void;
  /** The word of the button that closes without doing anything (Cancel unless told). */
  cancelLabel?: string;
  busy?: boolean;
  confirmDisabled?: boolean;
  danger?: boolean;
  /** Inputs the action takes (days to extend, the approval's mode), below the effect. */
  children?: ReactNode;
}

/**
 * ConfirmDialog asks before an action, naming its effect: Confirm (or Enter in one of its inputs)
 * runs it, Cancel/Keep or Escape closes without doing anything. Confirm has the focus first; it is
 * disabled while the action runs, and the dialog cannot be closed then.
 */
export function ConfirmDialog({
  open = true,
  onClose,
  title,
  effect,
  confirmLabel,
  onConfirm,
  cancelLabel = t.cancel,
  busy = false,
  confirmDisabled = false,
  danger = true,
  children,
}: ConfirmDialogProps) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // React carries events through the portal: a dialog opened from a form (the refund) must not
    // submit that form too.
    e.stopPropagation();
    if (!busy && !confirmDisabled) onConfirm();
  };
  return (
    <Dialog open={open} onClose={onClose} title={title} description={effect} role="alertdialog" busy={busy}>
      <form className="confirm-form" onSubmit={submit}>
        {children}
        <div className="dialog-buttons">
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog's first stop is its action, as the platform's alerts */}
          <button type="submit" autoFocus className={danger ? 'danger' : 'primary'} disabled={busy || confirmDisabled} aria-busy={busy}>
            {confirmLabel}
          </button>
          <button type="button" disabled={busy} onClick={onClose}>
            {cancelLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * newIdempotencyKey names one dialog's change: sent as Idempotency-Key, a second submission of
 * the same dialog is answered with the first one's result. getRandomValues works on a plain-http
 * console too, where crypto.randomUUID does not exist.
 */
export function newIdempotencyKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return `console-${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;
}
