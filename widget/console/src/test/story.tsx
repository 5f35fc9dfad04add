// The console in Storybook: the whole app at a path, signed in against the contract-checked fake
// of the admin API (fakeApi.ts), its location kept in memory so the story's iframe keeps its own
// address. An answer or request off the contract is logged as a console error, which fails the
// Storybook smoke test (storybook/test/smoke.test.js). The toolbar's locale is the console's
// language; `pending` holds one call's answer back for ever, which is the screen's loading state.
import { useEffect, useState } from 'react';
import { App } from '../App';
import { API_BASE } from '../api';
import { locale as current, normalizeLocale, switchLocale, type LocaleCode } from '../messages';
import { routeInMemory } from '../router';
import '../styles.css';
import { FakeApi, takeBreaches } from './fakeApi';
import type { Role } from '../schemas';

export interface ConsoleStoryProps {
  /** path below /checkout/admin/, with its query: "orders/ord_1", "subscriptions?status=Overdue". */
  path: string;
  /** role of the operator signed in; null: nobody is (the sign-in and setup pages). */
  role?: Role | null;
  /** routes adds the screen's answers to the fake. */
  routes: (fake: FakeApi) => FakeApi;
  /** pending is an API path below /admin ("/customers") whose answer never comes: the loading state. */
  pending?: string;
  /** locale is the console's language (the toolbar's locale). */
  locale?: string;
}

export function ConsoleStory({ path, role = 'owner', routes, pending, locale }: ConsoleStoryProps) {
  const [fetch] = useState(() => {
    routeInMemory(`/checkout/admin/${path}`);
    const fake = routes(new FakeApi(role));
    return async (input: RequestInfo | URL, init?: RequestInit) => {
      if (pending && new URL(String(input), 'http://shop.test').pathname === API_BASE + pending) return new Promise<Response>(() => {});
      const res = await fake.fetch(input, init);
      for (const b of takeBreaches()) console.error(`fake admin API off the contract: ${b}`);
      return res;
    };
  });
  const [lang, setLang] = useState<LocaleCode>(current);
  useEffect(() => {
    const code = normalizeLocale(locale) ?? 'en';
    let live = true;
    void switchLocale(code).then(() => live && setLang(code));
    return () => {
      live = false;
    };
  }, [locale]);
  return (
    <div data-console-story key={lang}>
      <App fetch={fetch} />
    </div>
  );
}

/** renderConsoleStory is every console story's render: the story's args in the toolbar's language. */
export function renderConsoleStory(args: ConsoleStoryProps, { globals }: { globals: Record<string, unknown> }) {
  return <ConsoleStory {...args} locale={String(globals.locale ?? 'en')} />;
}
