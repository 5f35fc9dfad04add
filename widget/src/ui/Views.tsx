// Small views every screen may show: the one-message step, the generic error, not found, the home
// and services links.
import type { MouseEvent, ReactElement, ReactNode } from 'react';
import { useCheckout, useController, useI18n } from './context';
import { useStepFocus } from './focus';
import { Icon, type IconName } from './icons';

/**
 * A one-message step; its heading takes focus when the step replaces another (or `focusKey` changes).
 * `icon` names an icon, or is an icon element of its own (a class of its own, say).
 */
export function Centered({
  icon,
  tone,
  title,
  children,
  testId,
  focusKey,
}: {
  icon: IconName | ReactElement;
  tone?: 'error' | 'ok' | 'busy';
  title: string;
  children?: ReactNode;
  testId?: string;
  focusKey?: string;
}) {
  const heading = useStepFocus<HTMLHeadingElement>(focusKey);
  return (
    <div className="sc-page sc-center" data-testid={testId}>
      <div className={`sc-hero-icon${tone ? ` is-${tone}` : ''}`}>
        {typeof icon === 'string' ? <Icon name={icon} className={tone === 'busy' ? 'sc-spin' : undefined} /> : icon}
      </div>
      <h2 className="sc-title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      {children}
    </div>
  );
}

/** Link to the checkout's first page: a real href in history mode, in-widget navigation always. */
export function HomeLink({ children, className = 'sc-btn sc-btn-primary' }: { children: ReactNode; className?: string }) {
  const c = useController();
  const href = useCheckout(() => c.homeHref());
  return (
    <a
      className={className}
      href={href}
      onClick={(e: MouseEvent) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        c.navigate('');
      }}
    >
      {children}
    </a>
  );
}

export function ErrorView() {
  const c = useController();
  const { t } = useI18n();
  const fatal = useCheckout((s) => s.fatal);
  const known = fatal ? (t.errors as Record<string, string>)[fatal.name] : undefined;
  return (
    <div role="alert">
      <Centered icon="alert" tone="error" title={t.errorTitle} testId="error-view">
        <p className="sc-lead">{known ?? t.errorText}</p>
        <div className="sc-actions">
          <button type="button" className="sc-btn sc-btn-primary" onClick={() => c.recover()}>
            {t.tryAgain}
          </button>
          <HomeLink className="sc-btn sc-btn-ghost">{t.backHome}</HomeLink>
        </div>
      </Centered>
    </div>
  );
}

/** "Manage my services": the after-sale services view (index route, ?view=services). */
export function ManageLink({ lead = true }: { lead?: boolean }) {
  const c = useController();
  const { t } = useI18n();
  const href = useCheckout(() => c.servicesHref());
  return (
    <p className="sc-head-link">
      {lead && `${t.alreadyCustomer} `}
      <a
        className="sc-link"
        href={href}
        data-testid="manage-services"
        onClick={(e: MouseEvent) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          c.navigate('', { view: 'services' });
        }}
      >
        {t.manageServices}
      </a>
    </p>
  );
}

export function NotFound() {
  const { t } = useI18n();
  return (
    <Centered icon="help" title={t.notFound} testId="not-found">
      <p className="sc-status-code" aria-hidden="true">
        404
      </p>
      <HomeLink>{t.backHome}</HomeLink>
    </Centered>
  );
}
