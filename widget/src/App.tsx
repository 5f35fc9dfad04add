// The widget's routes (spec §2) and what every route shares: the locale shown, the error boundary,
// the entry effects.
import { Component, Suspense, useEffect, useState, useSyncExternalStore, type ErrorInfo, type ReactNode } from 'react';
import type { Controller } from './core/controller';
import { bcp47, type LocaleCode } from './i18n/locale';
import { isLoaded, loadMessages } from './i18n/messages';
import { AfterSale, CreatingOrder, runLanding, ScreenLoadError, Success, Waiting } from './screens';
import { PlansPage } from './screens/plans/PlansPage';
import { ControllerContext, LocaleContext, useCheckout, useController, useI18n } from './ui/context';
import { ErrorView, NotFound } from './ui/Views';

/** A render error anywhere in the flow becomes the generic error view, never a blank widget. */
class Boundary extends Component<{ controller: Controller; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: Error, _info: ErrorInfo) {
    // A screen's chunk that did not load is a network failure (its screen forgets it, so that "Try
    // again" asks for the chunk afresh); anything else a bug of ours.
    if (error instanceof ScreenLoadError) error.forget();
    this.props.controller.fail({ name: error instanceof ScreenLoadError ? 'network' : 'internal', message: error.message });
    this.setState({ failed: false });
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

function Routes() {
  const route = useCheckout((s) => s.route.name);
  // The services view lives on the index route (?view=services) so the routes stay those of spec §2;
  // a sign-in link (?signin=) lands there too.
  const services = useCheckout((s) => s.route.query.view === 'services' || (s.route.name === '' && !!s.route.query.signin));
  const upsellDone = useCheckout((s) => !!s.route.query.upsell);
  const fatal = useCheckout((s) => s.fatal);
  if (fatal) return <ErrorView />;
  switch (route) {
    case '':
      return services ? <AfterSale screen="services" /> : <PlansPage group="plan" />;
    case 'resellers':
      return <AfterSale screen="resellers" />;
    case 'creatingOrder':
      return <CreatingOrder />;
    case 'waiting':
      return <Waiting />;
    case 'resellers/waiting':
      return <Waiting reseller />;
    case 'success':
      return upsellDone ? <AfterSale screen="upsellSuccess" /> : <Success />;
    case 'resellers/success':
      return <AfterSale screen="resellerSuccess" />;
    case 'upsell':
      return <AfterSale screen="upsell" />;
    case 'renew':
      return <AfterSale screen="renew" />;
    default:
      return <NotFound />;
  }
}

/**
 * What shows while a screen's chunk or the locale's texts load: the head of a centred screen (the
 * waiting, success and error views) as shimmering blocks of its size, so the screen takes their
 * place without a shift; a status that says "loading" once the texts are there.
 */
function Loading({ label = '\u00a0' }: { label?: string }) {
  return (
    <div className="sc-page sc-center sc-loading" role="status">
      <div className="sc-hero-icon sc-skeleton" />
      <p className="sc-title sc-skeleton">{label}</p>
    </div>
  );
}

function ScreenLoading() {
  return <Loading label={useI18n().t.loading} />;
}

/** Entry effects run once per element: ready event, popstate, auto-login, automatic order. */
function Lifecycle() {
  const c = useController();
  useEffect(() => {
    // With a currency to report: the plan page may still be waiting for the storefront's default one.
    c.whenCurrency(() => c.emit('streamcart:ready', c.readyDetail()));
    window.addEventListener('popstate', c.syncFromLocation);
    runLanding(c);
    // Back from the payment page into a page restored from the back/forward cache: the redirect
    // view would wait forever, so show the order's waiting view (it offers to complete the payment).
    const onPageShow = (e: PageTransitionEvent) => {
      const s = c.getState();
      if (!e.persisted || s.attempt.status !== 'redirecting') return;
      c.setAttempt({ status: 'idle' });
      c.navigate('waiting', { order: s.persisted.order.orderid }, { replace: true });
    };
    window.addEventListener('pageshow', onPageShow);
    return () => {
      window.removeEventListener('popstate', c.syncFromLocation);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, [c]);
  return null;
}

/**
 * Shows a locale once its table is loaded: the first paint waits (no flash of English on a German
 * page); a later switch keeps the current language on screen until the new table is there.
 */
function useShownLocale(c: Controller): LocaleCode | null {
  const wanted = useSyncExternalStore(c.subscribe, () => c.getState().locale);
  const [shown, setShown] = useState<LocaleCode | null>(isLoaded(wanted) ? wanted : null);
  useEffect(() => {
    let live = true;
    if (isLoaded(wanted)) setShown(wanted);
    else
      void loadMessages(wanted).then(() => {
        if (live) setShown(wanted);
      });
    return () => {
      live = false;
    };
  }, [wanted]);
  return shown;
}

export function App({ controller }: { controller: Controller }) {
  const locale = useShownLocale(controller);
  return (
    <ControllerContext.Provider value={controller}>
      {locale === null ? (
        <div className="sc-root">
          <Loading />
        </div>
      ) : (
        <LocaleContext.Provider value={locale}>
          <div className="sc-root" lang={bcp47(locale)}>
            <Lifecycle />
            <Boundary controller={controller}>
              <Suspense fallback={<ScreenLoading />}>
                <Routes />
              </Suspense>
            </Boundary>
          </div>
        </LocaleContext.Provider>
      )}
    </ControllerContext.Provider>
  );
}
