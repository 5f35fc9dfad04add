// The console's shell: the setup page (public, from the one-time link), sign-in, and once signed
// in the navigation and the screen of the URL. A 401 from any call (session over) shows sign-in
// again; the CSRF token lives in the API client's memory only.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { createApi } from './api';
import { CreditsBanner } from './CreditsBanner';
import { Ctx } from './context';
import { locale, rememberLocale, switchLocale, t, type LocaleCode } from './messages';
import { href, Link, useRoute, type Route } from './router';
import type { Session } from './schemas';
import { Audit } from './screens/Audit';
import { Catalog } from './screens/Catalog';
import { CustomerDetail, Customers } from './screens/Customers';
import { Dashboard } from './screens/Dashboard';
import { Jobs } from './screens/Jobs';
import { LineDrift } from './screens/LineDrift';
import { MailList } from './screens/Mail';
import { Operators } from './screens/Operators';
import { Payments } from './screens/Payments';
import { OrderDetail } from './screens/OrderDetail';
import { HeldOrders, Orders } from './screens/Orders';
import { Promotions } from './screens/Promotions';
import { Setup } from './screens/Setup';
import { Settings } from './screens/Settings';
import { Subscriptions } from './screens/Subscriptions';
import { SignIn } from './screens/SignIn';
import { Webhooks } from './screens/Webhooks';
import { ErrorNote } from './ui';
import { LanguageMenu } from './ui/LanguageMenu';

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
        {children}
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
