import { createContext, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { isApiError } from '../api/client';
import type { Money } from '../api/schemas';
import { formatDate, formatMoney } from '../i18n/format';
import type { LocaleCode } from '../i18n/locale';
import { tableOf } from '../i18n/messages';
import type { Controller } from '../core/controller';
import type { State } from '../core/state';

export const ControllerContext = createContext<Controller | null>(null);

/** The locale whose table is loaded and shown (it trails State.locale while a table loads). */
export const LocaleContext = createContext<LocaleCode>('en');

export function useController(): Controller {
  const c = useContext(ControllerContext);
  if (!c) throw new Error('Streamcart flow rendered outside its element');
  return c;
}

export function useCheckout<T>(select: (s: State) => T): T {
  const c = useController();
  return useSyncExternalStore(c.subscribe, () => select(c.getState()));
}

/** The shown locale, its formatters and its plan-page texts (t), which every screen has. */
export function useI18n() {
  const locale = useContext(LocaleContext);
  const t = tableOf(locale, 'plans');
  const money = useCallback((m: Money) => formatMoney(m, locale), [locale]);
  const date = useCallback((d: string) => formatDate(d, locale), [locale]);
  return { t, locale, money, date };
}

export type Resource<T> =
  | { status: 'loading'; data: T | undefined; error: null; reload: () => void }
  | { status: 'ok'; data: T; error: null; reload: () => void }
  | { status: 'error'; data: T | undefined; error: unknown; reload: () => void };

/**
 * Loads data for `key`; keeps the previous data while a new key loads (no flicker on a currency
 * switch). A key that names an answer Controller.cached already has (the catalog reads use the same
 * keys for both) starts from that answer: no loading state. A malformed answer switches the whole
 * widget to the generic error view.
 */
export function useResource<T>(key: string | null, load: () => Promise<T>): Resource<T> {
  const c = useController();
  const [n, setN] = useState(0);
  const [state, setState] = useState<{ key: string | null; status: 'loading' | 'ok' | 'error'; data?: T; error?: unknown }>(() => {
    const hit = key === null ? undefined : c.peek(key);
    return hit ? { key, status: 'ok', data: hit.value as T } : { key, status: 'loading' };
  });
  const loadRef = useRef(load);
  loadRef.current = load;
  const reload = useCallback(() => setN((x) => x + 1), []);

  useEffect(() => {
    if (key === null) return;
    const hit = c.peek(key);
    if (hit) {
      setState((s) => (s.key === key && s.status === 'ok' && s.data === hit.value ? s : { key, status: 'ok', data: hit.value as T }));
      return;
    }
    let live = true;
    setState((s) => ({ key, status: 'loading', data: s.data }));
    loadRef.current().then(
      (data) => {
        if (live) setState({ key, status: 'ok', data });
      },
      (error: unknown) => {
        if (!live) return;
        if (isApiError(error) && error.code === 'malformed') c.fail(error);
        setState((s) => ({ key, status: 'error', data: s.data, error }));
      },
    );
    return () => {
      live = false;
    };
  }, [key, n, c]);

  let status = state.key === key ? state.status : 'loading';
  let data = state.data;
  if (status === 'loading' && key !== null) {
    // A new key whose answer is already cached renders it at once (the effect confirms it).
    const hit = c.peek(key);
    if (hit) {
      status = 'ok';
      data = hit.value as T;
    }
  }
  if (status === 'ok') return { status, data: data as T, error: null, reload };
  if (status === 'error') return { status, data: state.data, error: state.error, reload };
  return { status: 'loading', data: state.data, error: null, reload };
}
