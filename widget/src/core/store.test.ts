import { describe, expect, it } from 'vitest';
import { Store } from './store';

describe('Store', () => {
  it('merges a patch and tells every subscriber until it unsubscribes', () => {
    const store = new Store({ a: 1, b: 'x' });
    const seen: number[] = [];
    const stop = store.subscribe(() => seen.push(store.getState().a));
    store.set({ a: 2 });
    expect(store.getState()).toEqual({ a: 2, b: 'x' });
    stop();
    store.set({ a: 3 });
    expect(seen).toEqual([2]);
  });

  it('runs a waiter once, after the subscribers, on the first change that makes it ready', () => {
    const store = new Store({ currency: '' });
    const order: string[] = [];
    store.when(
      (s) => !!s.currency,
      () => order.push(`waiter ${store.getState().currency}`),
    );
    store.subscribe(() => order.push('subscriber'));
    store.set({ currency: '' });
    store.set({ currency: 'USD' });
    store.set({ currency: 'EUR' });
    expect(order).toEqual(['subscriber', 'subscriber', 'waiter USD', 'subscriber']);
    store.when(
      (s) => !!s.currency,
      () => order.push('at once'),
    );
    expect(order.at(-1)).toBe('at once');
  });
});
