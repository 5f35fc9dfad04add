// Mounts one of the after-sale screens, loading their module on first use.
import { useEffect, useState } from 'react';
import type { ScreenName, Screens } from '../aftersale/screens';
import { loadAfterSale } from './afterSaleLoad';
import { useI18n } from './context';
import { Centered, HomeLink } from './Views';

let loaded: Screens | null = null;
let loading: Promise<Screens> | null = null;

function load(): Promise<Screens> {
  loading ??= loadAfterSale().then(
    (s) => (loaded = s),
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
    load().then(
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
