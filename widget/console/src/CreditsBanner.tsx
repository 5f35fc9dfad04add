// The low-credit banner above every signed-in screen: when GET /admin/panel/credits says the panel's
// reseller balance is at or under the low-water mark (STREAMCART_PANEL_CREDITS_ALERT), how many are
// left and which plans the shop shows as temporarily unavailable. Asked once per sign-in and again
// on each navigation; nothing when the balance is fine, and nothing either when the call fails (a
// banner must never break the page it sits on).
import { useEffect, useState } from 'react';
import type { Api } from './api';
import { formatNumber } from './format';
import { t } from './messages';
import type { PanelCredits } from './schemas';

export function CreditsBanner({ api, path }: { api: Api; path: string }) {
  const [credits, setCredits] = useState<PanelCredits | null>(null);
  useEffect(() => {
    let live = true;
    api.panel.credits().then(
      (c) => live && setCredits(c),
      // A 401 already signs out (the API client); anything else leaves the page as it is.
      () => live && setCredits(null),
    );
    return () => {
      live = false;
    };
  }, [api, path]);
  if (!credits?.known || !credits.low) return null;
  return (
    <div className="note note-forbidden credits-banner" role="status" data-testid="credits-banner">
      <strong>{t.creditsLow(formatNumber(credits.balance, 2), formatNumber(credits.alert, 2))}</strong>{' '}
      {credits.unavailable.length ? t.creditsUnavailable(credits.unavailable.join(', ')) : t.creditsNoneUnavailable}{' '}
      <a href={t.creditsHelpUrl} target="_blank" rel="noreferrer">
        {t.creditsHelp}
      </a>
    </div>
  );
}
