// The `checkout` cookie: exactly the fields spec §3 persists, plus the session token.
//   auth.loggedIn, auth.user.userid, user.email, order, waiting, products.price,
//   products.totalPrice, products.notFound, payment, productDetails (+ token)
// Credentials are never stored: productDetails keeps what the success page shows besides the
// password, which is read again from the API with the token.
import * as v from 'valibot';
import { MoneySchema } from '../api/schemas';
import { deleteCookie, readCookie, writeCookie } from './cookie';

export const CHECKOUT_COOKIE = 'checkout';
export const CHECKOUT_MAX_AGE = 2_592_000; // 30 days

const str = v.optional(v.string(), '');

const PersistedSchema = v.object({
  auth: v.optional(
    v.object({
      loggedIn: v.optional(v.boolean(), false),
      user: v.optional(v.object({ userid: v.nullish(v.string(), null) }), { userid: null }),
    }),
    { loggedIn: false, user: { userid: null } },
  ),
  user: v.optional(v.object({ email: str }), { email: '' }),
  order: v.optional(
    v.object({
      orderid: str,
      invoiceid: str,
      serviceid: v.optional(v.array(v.string()), []),
      fraud: v.optional(v.boolean(), false),
    }),
    { orderid: '', invoiceid: '', serviceid: [], fraud: false },
  ),
  waiting: v.optional(v.object({ lastDate: v.nullish(v.string(), null), duration: v.optional(v.number(), 0) }), {
    lastDate: null,
    duration: 0,
  }),
  products: v.optional(
    v.object({
      price: v.nullish(MoneySchema, null),
      totalPrice: v.nullish(MoneySchema, null),
      notFound: v.optional(v.boolean(), false),
    }),
    { price: null, totalPrice: null, notFound: false },
  ),
  payment: v.optional(v.object({ gateway: str, url: str, deadline: str }), { gateway: '', url: '', deadline: '' }),
  productDetails: v.nullish(
    v.object({
      serviceid: v.string(),
      name: str,
      status: str,
      username: str,
      serverhostname: str,
    }),
    null,
  ),
  token: str,
});

export type Persisted = v.InferOutput<typeof PersistedSchema>;

export function emptyPersisted(): Persisted {
  return v.parse(PersistedSchema, {});
}

export function loadPersisted(doc: Document = document): Persisted {
  const raw = readCookie(CHECKOUT_COOKIE, doc);
  if (!raw) return emptyPersisted();
  try {
    const parsed = v.safeParse(PersistedSchema, JSON.parse(raw));
    return parsed.success ? parsed.output : emptyPersisted();
  } catch {
    return emptyPersisted();
  }
}

export function savePersisted(state: Persisted, doc: Document = document): void {
  writeCookie(CHECKOUT_COOKIE, JSON.stringify(state), { maxAge: CHECKOUT_MAX_AGE, path: '/', sameSite: 'Lax' }, doc);
}

export function clearPersistedCookie(doc: Document = document): void {
  deleteCookie(CHECKOUT_COOKIE, '/', doc);
}

/** Spec §4 sign-out: auth user, user state, last waiting date, client product, payment and order. */
export function signedOut(state: Persisted): Persisted {
  const empty = emptyPersisted();
  return {
    ...state,
    auth: empty.auth,
    user: empty.user,
    waiting: { ...state.waiting, lastDate: null },
    productDetails: null,
    payment: empty.payment,
    order: empty.order,
    token: '',
  };
}

/** Spec §4: starting an order clears the stored service id and client product. */
export function orderStarted(state: Persisted): Persisted {
  return { ...state, order: { ...state.order, serviceid: [] }, productDetails: null };
}

/** Spec §4: clearing for success clears the order and invoice ids only. */
export function clearedForSuccess(state: Persisted): Persisted {
  return { ...state, order: { ...state.order, orderid: '', invoiceid: '' } };
}
