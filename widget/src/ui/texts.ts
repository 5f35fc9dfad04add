// The texts of the screens after the plan page: a screen's own area added to the plan-page words,
// and an API failure in words. Only those screens read them, so this loads with them.
import { useCallback, useMemo } from 'react';
import { isApiError } from '../api/client';
import { tableOf } from '../i18n/messages';
import { useI18n } from './context';

/** useI18n with the texts of a screen area added to t (its screen has waited for them). */
export function useTexts<A extends 'checkout' | 'order'>(area: A) {
  const i = useI18n();
  const t = useMemo(() => ({ ...i.t, ...tableOf(i.locale, area) }), [i.t, i.locale, area]);
  return { ...i, t };
}

/** The after-sale screens: the shared words of every area in t, their own texts in a. */
export function useAfterSaleTexts() {
  const i = useI18n();
  const t = useMemo(() => ({ ...i.t, ...tableOf(i.locale, 'checkout'), ...tableOf(i.locale, 'order') }), [i.t, i.locale]);
  return { ...i, t, a: tableOf(i.locale, 'aftersale') };
}

/**
 * Text for an API failure: translated by its stable name, else the server's message. errors is the
 * table to name it from: the plan page's shared errors unless a screen passes its area's (the
 * checkout's adds its own, which stay out of the first paint).
 */
export function useErrorText(errors?: { internal: string }) {
  const { t } = useI18n();
  const table: Record<string, string> = errors ?? t.errors;
  return useCallback(
    (err: unknown): string => {
      if (!isApiError(err)) return table.internal!;
      const known = table[err.code];
      return known ?? (err.message || table.internal!);
    },
    [table],
  );
}
