// ConfirmDialog asks before a change that moves money or lines (refund, approve): a modal alert
// dialog built on react-aria-components (focus moved in and trapped, Escape and Cancel close it,
// focus given back to what opened it, the page behind inert). It states the effect in its
// description; the confirm button is disabled while the change runs, and the dialog stays open
// until it ends. react-aria sets styles through the CSSOM only, which the console's CSP
// (style-src 'self', no inline <style>) allows.
import { useId, type ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { t } from '../messages';

export interface ConfirmDialogProps {
  open: boolean;
  /** onClose is asked to close: Cancel, Escape or a click outside; never while busy. */
  onClose: () => void;
  title: string;
  /** The effect of confirming, read out as the dialog's description. */
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  confirmDisabled?: boolean;
  danger?: boolean;
}

export function ConfirmDialog({
  open,
  onClose,
  title,
  children,
  confirmLabel,
  onConfirm,
  busy,
  confirmDisabled,
  danger,
}: ConfirmDialogProps) {
  const described = useId();
  return (
    <ModalOverlay
      isOpen={open}
      onOpenChange={(isOpen) => {
        if (!isOpen && !busy) onClose();
      }}
      isDismissable={!busy}
      isKeyboardDismissDisabled={busy}
      className="dialog-overlay"
    >
      <Modal className="dialog">
        <Dialog role="alertdialog" aria-describedby={described} className="dialog-body">
          <Heading slot="title" className="dialog-title">
            {title}
          </Heading>
          <div id={described} className="dialog-effect">
            {children}
          </div>
          <div className="dialog-buttons">
            <button
              type="button"
              className={danger ? 'danger' : 'primary'}
              disabled={busy || confirmDisabled}
              aria-busy={busy}
              onClick={onConfirm}
            >
              {confirmLabel}
            </button>
            <button type="button" disabled={busy} onClick={onClose}>
              {t.cancel}
            </button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
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
