// One Idempotency-Key per order attempt: the same body retried keeps it, a new body gets a new one.
import { browser } from './browser';

export class IdempotencyKey {
  #current: { body: string; key: string } | null = null;

  for(body: string): string {
    if (this.#current?.body !== body) this.#current = { body, key: browser.uuid() };
    return this.#current.key;
  }

  forget(): void {
    this.#current = null;
  }
}
