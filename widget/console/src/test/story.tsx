// The console in Storybook: the whole app at a path, signed in against the contract-checked fake
// of the admin API (fakeApi.ts), its location kept in memory so the story's iframe keeps its own
// address. An answer or request off the contract is logged as a console error, which fails the
// Storybook smoke test (storybook/test/smoke.test.js).
import { useState } from 'react';
import { App } from '../App';
import { routeInMemory } from '../router';
import '../styles.css';
import { FakeApi, takeBreaches } from './fakeApi';
import type { Role } from '../schemas';

export interface ConsoleStoryProps {
  /** path below /checkout/admin/, with its query: "orders/ord_1", "subscriptions?status=Overdue". */
  path: string;
  role?: Role;
  /** routes adds the screen's answers to the fake. */
  routes: (fake: FakeApi) => FakeApi;
}

export function ConsoleStory({ path, role = 'owner', routes }: ConsoleStoryProps) {
  const [fetch] = useState(() => {
    routeInMemory(`/checkout/admin/${path}`);
    const fake = routes(new FakeApi(role));
    return async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fake.fetch(input, init);
      for (const b of takeBreaches()) console.error(`fake admin API off the contract: ${b}`);
      return res;
    };
  });
  return (
    <div data-console-story>
      <App fetch={fetch} />
    </div>
  );
}
