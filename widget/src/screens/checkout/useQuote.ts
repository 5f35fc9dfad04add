import { useEffect, useRef, useState } from 'react';
import { isApiError, type QuoteBody } from '../../api/client';
import { CheckoutQuoteSchema, type CheckoutQuote } from '../../ui/terms';
import { useController } from '../../ui/context';
import { timing } from '../../core/timing';

export interface QuoteState {
  quote: CheckoutQuote | null;
  /** The body the shown quote answers; the pay button needs it to match the current choice. */
  forKey: string | null;
  loading: boolean;
  error: unknown;
}

/** Asks POST /quote for every change of the choice, 200 ms after the last one (spec §9). */
export function useQuote(body: QuoteBody | null): QuoteState & { key: string | null } {
  const c = useController();
  const key = body ? JSON.stringify(body) : null;
  const [state, setState] = useState<QuoteState>({ quote: null, forKey: null, loading: false, error: null });
  const seq = useRef(0);

  useEffect(() => {
    if (!key) return;
    const id = ++seq.current;
    setState((s) => ({ ...s, loading: true, error: null }));
    const timer = setTimeout(() => {
      // With what renews (ui/terms.tsx's schema: the first script's has no need of it).
      c.client.request(CheckoutQuoteSchema, 'POST', '/quote', { body: JSON.parse(key) as QuoteBody }).then(
        (quote) => {
          if (id === seq.current) setState({ quote, forKey: key, loading: false, error: null });
        },
        (error: unknown) => {
          if (id !== seq.current) return;
          if (isApiError(error) && error.code === 'malformed') c.fail(error);
          setState((s) => ({ ...s, forKey: null, loading: false, error }));
        },
      );
    }, timing.quoteDelayMs);
    return () => clearTimeout(timer);
  }, [key, c]);

  return { ...state, key };
}
