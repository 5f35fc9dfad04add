// A plain observable value: React reads it with useSyncExternalStore, everything else through
// getState/set. Knows nothing of what the value is.
export class Store<S extends object> {
  #state: S;
  #listeners = new Set<() => void>();
  #waiters: Array<{ ready: (s: S) => boolean; fn: () => void }> = [];

  constructor(initial: S) {
    this.#state = initial;
  }

  subscribe = (fn: () => void): (() => void) => {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  };

  getState = (): S => this.#state;

  set(patch: Partial<S>): void {
    this.#state = { ...this.#state, ...patch };
    for (const fn of this.#listeners) fn();
    if (!this.#waiters.length) return;
    // After the subscribers, so a waiter sees what they were told.
    const due = this.#waiters.filter((w) => w.ready(this.#state));
    if (!due.length) return;
    this.#waiters = this.#waiters.filter((w) => !due.includes(w));
    for (const w of due) w.fn();
  }

  /** Calls `fn` once, now or after the first change for which `ready` holds. */
  when(ready: (s: S) => boolean, fn: () => void): void {
    if (ready(this.#state)) fn();
    else this.#waiters.push({ ready, fn });
  }
}
