// A button of a screen whose actions run one at a time (a service card's restart, recreate,
// terminate; a renewal's pay, cancel, resume): while this one's action runs it says so (aria-busy,
// its busy label); while another runs it is aria-disabled and its click does nothing. It stays
// focusable throughout, as a disabled button would drop the keyboard focus.
import type { ReactNode, Ref } from 'react';

export interface BusyButtonProps {
  children: ReactNode;
  /** This button's action is running. */
  busy?: boolean;
  /** Another action is running (or this one cannot run): clicks are ignored (a submit button's form decides). */
  blocked?: boolean;
  /** What the button says while busy ("Working…"); its children otherwise. */
  busyLabel?: ReactNode;
  /** A plain button's action; a submit button's is its form's onSubmit. */
  onClick?: () => void;
  className?: string;
  testId?: string;
  type?: 'button' | 'submit';
  buttonRef?: Ref<HTMLButtonElement>;
}

export function BusyButton({
  children,
  busy = false,
  blocked = false,
  busyLabel,
  onClick,
  className = 'sc-btn sc-btn-secondary',
  testId,
  type = 'button',
  buttonRef,
}: BusyButtonProps) {
  const off = busy || blocked;
  return (
    <button
      ref={buttonRef}
      type={type}
      className={className}
      data-testid={testId}
      aria-disabled={off || undefined}
      aria-busy={busy || undefined}
      onClick={() => {
        // A submit button always submits: its form's handler checks its fields and whether an
        // action is under way.
        if (type === 'button' && !off) onClick?.();
      }}
    >
      {busy && busyLabel !== undefined ? busyLabel : children}
    </button>
  );
}
