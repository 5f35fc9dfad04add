// What an after-sale screen shows while its own data loads (the services, the offers, a renewal's
// invoice, the orders): blocks in the shape of the screen to come, shimmering as the lazy-screen
// fallback's do (App's Loading), and a status that says in the buyer's language what is loading.
// Part of the after-sale chunk: never on the first paint.

/**
 * A loading screen: its head (the title's place holds the label, transparent, for screen readers)
 * and `cards` blocks where the screen's boxes will be; `narrow` for the one-column pages (upsell,
 * renewal), `centered` for a one-message step (a success page).
 */
export function ScreenSkeleton({
  label,
  cards = 2,
  layout = 'page',
  testId = 'screen-loading',
}: {
  label: string;
  cards?: number;
  layout?: 'page' | 'narrow' | 'centered';
  testId?: string;
}) {
  if (layout === 'centered') {
    return (
      <div className="sc-page sc-center sc-loading" role="status" aria-busy="true" data-testid={testId}>
        <div className="sc-hero-icon sc-skeleton" />
        <p className="sc-title sc-skeleton">{label}</p>
      </div>
    );
  }
  return (
    <div
      className={`sc-page sc-loading sc-screen-skeleton${layout === 'narrow' ? ' sc-narrow' : ''}`}
      role="status"
      aria-busy="true"
      data-testid={testId}
    >
      <div className="sc-section-head">
        <p className="sc-title sc-skeleton">{label}</p>
        <p className="sc-lead sc-skeleton" aria-hidden="true">
          {'\u00a0'}
        </p>
      </div>
      <div className="sc-services" aria-hidden="true">
        {Array.from({ length: cards }, (_, i) => (
          <div className="sc-card sc-skeleton sc-skeleton-card" key={i} />
        ))}
      </div>
    </div>
  );
}

/** The rows of a list loading inside its box ("Orders and invoices"), with the label for screen readers. */
export function RowsSkeleton({ label, rows = 3, testId }: { label: string; rows?: number; testId?: string }) {
  return (
    <div className="sc-loading sc-rows-skeleton" role="status" aria-busy="true" data-testid={testId}>
      <span className="sc-skeleton-label">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <div className="sc-skeleton sc-skeleton-row" aria-hidden="true" key={i} />
      ))}
    </div>
  );
}
