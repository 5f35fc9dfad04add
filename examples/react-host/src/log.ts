// The page's log of widget events and method calls. It lives in sessionStorage: a paid plan leaves
// for the payment page and comes back, and the log should show the whole purchase.
import { useCallback, useState } from 'react';
import type { StreamcartEvent, StreamcartEventName } from '@streamcart/widget';

type NewEntry = { kind: 'event'; type: StreamcartEventName; detail: unknown } | { kind: 'call'; type: string; args: unknown[] };

export type Entry = NewEntry & { seq: number; at: string };

const KEY = 'react-host:log';

function read(): Entry[] {
  try {
    const list: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(list) ? (list as Entry[]) : [];
  } catch {
    return [];
  }
}

export function useLog() {
  const [entries, setEntries] = useState<Entry[]>(read);

  // Written at once, not from an effect: payment-started is followed by the page leaving.
  const add = useCallback((entry: NewEntry) => {
    const list = read();
    const next: Entry[] = [...list, { ...entry, seq: list.length + 1, at: new Date().toISOString() }];
    sessionStorage.setItem(KEY, JSON.stringify(next));
    setEntries(next);
  }, []);

  const event = useCallback(
    (e: StreamcartEvent<StreamcartEventName>) => add({ kind: 'event', type: e.type as StreamcartEventName, detail: e.detail }),
    [add],
  );
  const call = useCallback((method: string, args: unknown[]) => add({ kind: 'call', type: method, args }), [add]);
  const clear = useCallback(() => {
    sessionStorage.removeItem(KEY);
    setEntries([]);
  }, []);

  return { entries, event, call, clear };
}
