// The after-sale screens' hooks: their API (in the shown locale), whether the session is proven,
// and an API failure in their words.
import { useMemo } from 'react';
import { browser } from '../../core/browser';
import { tokenScope } from '../../core/signin';
import { afterSaleApi } from '../../api/aftersale';
import { isApiError } from '../../api/client';
import { useCheckout, useController, useI18n } from '../../ui/context';
import { useAfterSaleTexts, useErrorText } from '../../ui/texts';

export function useApi() {
  const c = useController();
  const client = useCheckout(() => c.client);
  const { locale } = useI18n();
  return useMemo(() => afterSaleApi(client, locale, () => browser.uuid()), [client, locale]);
}

/** Signed in with a password or a link (the scope the token carries); the server has the last word. */
export function useProven(): boolean {
  return useCheckout((s) => s.persisted.auth.loggedIn && tokenScope(s.persisted.token) === 'proven');
}

/** Error text: this module's names first, then the main table's, then the server's message. */
export function useAfterSaleError() {
  const { a, t } = useAfterSaleTexts();
  const main = useErrorText(t.errors);
  return (e: unknown): string => {
    if (isApiError(e)) {
      const own = (a.errors as Record<string, string>)[e.code];
      if (own) return own;
    }
    return main(e);
  };
}
