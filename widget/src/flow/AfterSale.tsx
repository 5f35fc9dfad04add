// Mounts one of the after-sale screens, loading their module (its own chunk: dist/aftersale.js,
// the package's chunks/aftersale.js) on first use.
import { useEffect, useState } from 'react';
import type { ScreenName, Screens } from '../aftersale/screens';
import { useI18n } from './context';
import { Centered, HomeLink } from './Views';

let loaded: Screens | null = null;
let loading: Promise<Screens> | null = null;

/** The after-sale screens, imported once; a failed import is tried again on the next call. */
export function loadAfterSale(): Promise<Screens> {
  loading ??= import('../aftersale/screens').then(
    (m) => (loaded = m.screens),
    (e: unknown) => {
      loading = null; // a later visit tries again
      throw e;
    },
  );
  return loading;
}

export function AfterSale({ screen }: { screen: ScreenName }) {
  const { t } = useI18n();
  const [screens, setScreens] = useState<Screens | null>(loaded);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (screens) return;
    let live = true;
    loadAfterSale().then(
      (s) => live && setScreens(s),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [screens, attempt]);

  if (failed) {
    return (
      <div role="alert">
        <Centered icon="alert" tone="error" title={t.errorTitle}>
          <p className="sc-lead">{t.errorText}</p>
          <div className="sc-actions">
            <button
              type="button"
              className="sc-btn sc-btn-primary"
              onClick={() => {
                setFailed(false);
                setAttempt((n) => n + 1);
              }}
            >
              {t.tryAgain}
            </button>
            <HomeLink className="sc-btn sc-btn-ghost">{t.backHome}</HomeLink>
          </div>
        </Centered>
      </div>
    );
  }
  if (!screens) return <Centered icon="spinner" tone="busy" title={t.loading} />;
  const Screen = screens[screen];
  return <Screen />;
}
