import { createContext, useContext } from 'react';
import type { Api } from './api';
import { can, type Action } from './roles';
import type { Session } from './schemas';

export interface ConsoleContext {
  api: Api;
  session: Session;
}

export const Ctx = createContext<ConsoleContext | null>(null);

/** useConsole gives a signed-in screen the API and the operator's session. */
export function useConsole() {
  const c = useContext(Ctx);
  if (!c) throw new Error('useConsole outside a signed-in console');
  return { ...c, can: (a: Action) => can(c.session.role, a), billedHere: c.session.billing !== 'whmcs' };
}
