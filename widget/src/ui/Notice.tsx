// What an action says afterwards: a confirmation in a polite live region (StatusNote: the region is
// always there, so a screen reader hears the message when it appears) or a problem (Alert: an
// assertive alert with its icon, or a standing warning when `quiet`).
import type { ReactNode } from 'react';
import { Icon } from './icons';

export function StatusNote({ message, testId }: { message: ReactNode | null; testId?: string }) {
  return (
    <div role="status">
      {message !== null && message !== '' && (
        <p className="sc-note" data-testid={testId}>
          {message}
        </p>
      )}
    </div>
  );
}

export function Alert({
  children,
  testId,
  tone = 'error',
  quiet = false,
}: {
  children: ReactNode;
  testId?: string;
  /** warn: an overdue or suspended service, say; error: an action that failed. */
  tone?: 'error' | 'warn';
  /** A standing warning, part of the page: not announced as an alert. */
  quiet?: boolean;
}) {
  return (
    <p className={tone === 'warn' ? 'sc-alert sc-alert-warn' : 'sc-alert'} role={quiet ? undefined : 'alert'} data-testid={testId}>
      <Icon name="alert" />
      {children}
    </p>
  );
}
