// The cart of an order that left for the payment page, kept in this tab (sessionStorage), so that
// "Back to plans" after a failed or cancelled payment brings back the chosen plan, cycle, extras,
// promo code and gateway (issue 25). The page reloads on the way back from the payment page,
// which empties the widget's memory; the cookie keeps only what spec §3 names. Only the checkout
// and order chunks import this file.
import * as v from 'valibot';
import { int } from '../api/primitives';
import { isCycle } from '../api/schemas';
import type { Controller } from './controller';

const KEY = 'streamcart:cart';

// Only valibot functions the first script has already (a new one would be bundled into it).
const CartSchema = v.object({
  orderId: v.string(),
  pid: int,
  cycle: v.nullish(v.string(), null),
  extra: v.boolean(),
  connections: int,
  proxy: v.boolean(),
  promoInput: v.string(),
  gateway: v.nullish(v.string(), null),
});

export type Cart = v.InferOutput<typeof CartSchema>;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null; // storage refused (a sandboxed frame, privacy settings): nothing is kept
  }
}

/** Keeps the cart of order `orderId`, as the buyer chose it, before leaving for the payment page. */
export function rememberCart(c: Controller, orderId: string): void {
  const { selection, draft } = c.getState();
  if (!selection) return;
  const cart: Cart = {
    orderId,
    pid: selection.pid,
    cycle: selection.cycle,
    extra: draft.extra,
    connections: draft.connections,
    proxy: draft.proxy,
    // The code the buyer had applied, else what they typed.
    promoInput: draft.promo?.code.toUpperCase() ?? draft.promoInput,
    gateway: draft.gateway,
  };
  try {
    storage()?.setItem(KEY, JSON.stringify(cart));
  } catch {
    // full or refused: the buyer chooses again
  }
}

/** The cart kept for `orderId`, if any. */
export function keptCart(orderId: string): Cart | null {
  try {
    const raw = storage()?.getItem(KEY);
    if (!raw) return null;
    const parsed = v.safeParse(CartSchema, JSON.parse(raw));
    return parsed.success && parsed.output.orderId === orderId ? parsed.output : null;
  } catch {
    return null;
  }
}

/** Puts the cart kept for `orderId` back into the form (plan, cycle, extras, promo, gateway). */
export function restoreCart(c: Controller, orderId: string): boolean {
  const cart = keptCart(orderId);
  if (!cart || cart.pid < 1 || cart.connections < 1) return false;
  c.select({ pid: cart.pid, cycle: cart.cycle && isCycle(cart.cycle) ? cart.cycle : null });
  c.setDraft({
    extra: cart.extra,
    connections: cart.connections,
    proxy: cart.proxy,
    promoInput: cart.promoInput,
    promo: null,
    gateway: cart.gateway,
  });
  return true;
}

/** Forgets the kept cart: its order was paid. */
export function forgetCart(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
