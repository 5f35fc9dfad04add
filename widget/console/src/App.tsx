// The console's shell: the setup page (public, from the one-time link), sign-in, and once signed
// in the navigation and the screen of the URL. A 401 from any call (session over) shows sign-in
// again; the CSRF token lives in the API client's memory only.
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { createApi } from './api';
import { CreditsBanner } from './CreditsBanner';
import { Ctx } from './context';
import { locale, rememberLocale, switchLocale, t, type LocaleCode } from './messages';
import { href, Link, useRoute, type Route } from './router';
import type { Session } from './schemas';
import { SignIn } from './screens/SignIn';
import { ErrorNote } from './ui/basics';
import { LanguageMenu } from './ui/LanguageMenu';

// Every screen but sign-in is its own chunk, loaded when its route is first shown (React.lazy): the
// first page fetches the shell, sign-in and the screen it opens on, not all sixteen screens. Shared
// parts (ui/, the table and dialog libraries) become chunks of their own that the screens share.
const Audit = lazy(() => import('./screens/Audit').then((m) => ({ default: m.Audit })));
const Catalog = lazy(() => import('./screens/Catalog').then((m) => ({ default: m.Catalog })));
const Customers = lazy(() => import('./screens/Customers').then((m) => ({ default: m.Customers })));
const CustomerDetail = lazy(() => import('./screens/Customers').then((m) => ({ default: m.CustomerDetail })));
const Dashboard = lazy(() => import('./screens/Dashboard').then((m) => ({ default: m.Dashboard })));
const Jobs = lazy(() => import('./screens/Jobs').then((m) => ({ default: m.Jobs })));
const LineDrift = lazy(() => import('./screens/LineDrift').then((m) => ({ default: m.LineDrift })));
const MailList = lazy(() => import('./screens/Mail').then((m) => ({ default: m.MailList })));
const Operators = lazy(() => import('./screens/Operators').then((m) => ({ default: m.Operators })));
const Payments = lazy(() => import('./screens/Payments').then((m) => ({ default: m.Payments })));
const OrderDetail = lazy(() => import('./screens/OrderDetail').then((m) => ({ default: m.OrderDetail })));
const Orders = lazy(() => import('./screens/Orders').then((m) => ({ default: m.Orders })));
const HeldOrders = lazy(() => import('./screens/Orders').then((m) => ({ default: m.HeldOrders })));
const Promotions = lazy(() => import('./screens/Promotions').then((m) => ({ default: m.Promotions })));
const Setup = lazy(() => import('./screens/Setup').then((m) => ({ default: m.Setup })));
const Settings = lazy(() => import('./screens/Settings').then((m) => ({ default: m.Settings })));
const Subscriptions = lazy(() => import('./screens/Subscriptions').then((m) => ({ default: m.Subscriptions })));
const Webhooks = lazy(() => import('./screens/Webhooks').then((m) => ({ default: m.Webhooks })));

/** NAV lists the screens in the navigation, by their path below /checkout/admin/. */
export const NAV = [
  ['', () => t.navDashboard],
  ['orders', () => t.navOrders],
  ['held', () => t.navHeld],
  ['payments', () => t.navPayments],
  ['customers', () => t.navCustomers],
  ['subscriptions', () => t.navSubscriptions],
  ['jobs', () => t.navJobs],
  ['line-drift', () => t.navLineDrift],
  ['webhooks', () => t.navWebhooks],
  ['mail', () => t.navMail],
  ['catalog', () => t.navCatalog],
  ['promotions', () => t.navPromotions],
  ['audit', () => t.navAudit],
  ['operators', () => t.navOperators],
  ['settings', () => t.navSettings],
] as const;

/** screen picks the title and the content of a signed-in route. */
function screen(route: Route): { title: string; body: ReactNode; section: string } {
  const [first = '', id] = route.parts;
  const nav = NAV.find(([p]) => p === first);
  if (id && first === 'orders') return { title: t.orderTitle(id), body: <OrderDetail key={id} id={id} />, section: 'orders' };
  if (id && first === 'customers') return { title: t.customerTitle, body: <CustomerDetail key={id} id={id} />, section: 'customers' };
  if (!nav || id)
    return {
      title: t.notFoundTitle,
      body: (
        <p>
          {t.notFoundText} <Link href={href('')}>{t.navDashboard}</Link>
        </p>
      ),
      section: '',
    };
  const bodies: Record<string, ReactNode> = {
    '': <Dashboard />,
    orders: <Orders />,
    held: <HeldOrders />,
    payments: <Payments />,
    customers: <Customers />,
    subscriptions: <Subscriptions />,
    jobs: <Jobs />,
    'line-drift': <LineDrift />,
    webhooks: <Webhooks />,
    mail: <MailList />,
    catalog: <Catalog />,
    promotions: <Promotions />,
    audit: <Audit />,
    operators: <Operators />,
    settings: <Settings />,
  };
  return { title: nav[1](), body: bodies[first], section: first };
}

function Page({ title, children, nav }: { title: string; children: ReactNode; nav?: ReactNode }) {
  const h1 = useRef<HTMLHeadingElement>(null);
  const route = useRoute();
  const first = useRef(true);
  useEffect(() => {
    document.title = `${title} · ${t.appName}`;
  }, [title]);
  // After an in-app navigation the heading takes the focus, so keyboard and screen reader users
  // land on the new screen (not on the first load: the browser starts at the top by itself).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    h1.current?.focus();
  }, [route.path]);
  return (
    <>
      <a href="#main" className="skip">
        {t.skipToContent}
      </a>
      {nav}
      <main id="main">
        <h1 ref={h1} tabIndex={-1}>
          {title}
        </h1>
        {/* A screen's chunk on its way: the heading is there already, the body says it is loading. */}
        <Suspense
          fallback={
            <p className="muted" role="status" data-testid="screen-loading">
              {t.loading}
            </p>
          }
        >
          {children}
        </Suspense>
      </main>
    </>
  );
}

/** PublicHeader tops the pages before sign-in: the console's name and the language menu. */
function PublicHeader({ language }: { language: ReactNode }) {
  return (
    <header className="top">
      <p className="brand">{t.appName}</p>
      <div className="who">{language}</div>
    </header>
  );
}

/** App is the whole console; fetch is replaced in tests only. */
export function App({ fetch: doFetch }: { fetch?: typeof fetch }) {
  // The language in use (messages.ts); main.tsx loaded the operator's choice before the first render.
  const [lang, setLang] = useState<LocaleCode>(locale);
  const changeLanguage = useCallback((code: LocaleCode) => {
    rememberLocale(code);
    void switchLocale(code).then(() => setLang(code));
  }, []);
  const language = <LanguageMenu value={lang} onChange={changeLanguage} />;
  const [session, setSession] = useState<Session | null | 'loading'>('loading');
  const [bootError, setBootError] = useState<unknown>(null);
  const onUnauthorized = useCallback(() => setSession(null), []);
  const api = useMemo(() => createApi({ fetch: doFetch, onUnauthorized }), [doFetch, onUnauthorized]);
  const route = useRoute();
  const setup = route.parts[0] === 'setup';
  // On a narrow screen the navigation folds behind a Menu button; it folds again on every move.
  const [menuOpen, setMenuOpen] = useState(false);
  const navId = useId();
  useEffect(() => setMenuOpen(false), [route.path]);

  useEffect(() => {
    if (setup || session !== 'loading') return;
    api.session.get().then(setSession, (e: unknown) => {
      if ((e as { status?: number }).status === 401) setSession(null);
      else setBootError(e);
    });
  }, [api, setup, session]);

  if (setup) {
    return (
      <Page title={t.setupTitle} nav={<PublicHeader language={language} />}>
        <Setup api={api} token={route.query.get('token') ?? ''} />
      </Page>
    );
  }
  if (bootError)
    return (
      <Page title={t.appName}>
        <ErrorNote error={bootError} />
      </Page>
    );
  if (session === 'loading')
    return (
      <p className="muted" role="status">
        {t.loading}
      </p>
    );
  if (!session)
    return (
      <Page title={t.signInTitle} nav={<PublicHeader language={language} />}>
        <SignIn api={api} onSignedIn={setSession} />
      </Page>
    );

  const s = screen(route);
  const signOut = async () => {
    try {
      await api.session.delete();
    } finally {
      setSession(null);
    }
  };
  const nav = (
    <header className="top">
      <p className="brand">{t.appName}</p>
      <button type="button" className="menu-toggle" aria-expanded={menuOpen} aria-controls={navId} onClick={() => setMenuOpen((o) => !o)}>
        {t.menu}
      </button>
      <nav id={navId} aria-label={t.mainNavLabel} className={menuOpen ? 'open' : undefined}>
        <ul>
          {NAV.map(([p, label]) => (
            <li key={p}>
              <Link href={href(p)} aria-current={s.section === p ? 'page' : undefined}>
                {label()}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="who">
        <span data-testid="operator">{session.operator}</span> <span className="role">{t.roles[session.role]}</span>
        {language}
        <button type="button" onClick={signOut}>
          {t.signOut}
        </button>
      </div>
    </header>
  );
  return (
    <Ctx.Provider value={{ api, session }}>
      {/* Keyed on the language: every screen, its columns and its forms, built again in it. */}
      <Page
        key={lang}
        title={s.title}
        nav={
          <>
            {nav}
            <CreditsBanner api={api} path={route.path} />
          </>
        }
      >
        {s.body}
      </Page>
    </Ctx.Provider>
  );
}
