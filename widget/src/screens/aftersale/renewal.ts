// A renewal being paid: remembered for this tab while the buyer is on the payment page, so that
// "My services" can follow its order when they come back and announce it paid.
const KEY = 'streamcart:renewal';

export interface PendingRenewal {
  serviceId: string;
  orderId: string;
  invoiceId: string;
}

export function rememberRenewal(r: PendingRenewal): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(r));
  } catch {
    // Storage refused (private mode, a sandboxed frame): the payment still goes through; the
    // services view just does not announce it.
  }
}

export function pendingRenewal(): PendingRenewal | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<PendingRenewal> | null;
    return v && typeof v.orderId === 'string' && v.orderId && typeof v.serviceId === 'string'
      ? { serviceId: v.serviceId, orderId: v.orderId, invoiceId: String(v.invoiceId ?? '') }
      : null;
  } catch {
    return null;
  }
}

export function forgetRenewal(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // see rememberRenewal
  }
}

/** Order statuses that mean the renewal's money arrived. */
export const PAID_STATUSES: readonly string[] = ['paid', 'provisioning', 'active'];
/** Order statuses after which the renewal will never be paid through this order. */
export const ENDED_STATUSES: readonly string[] = ['cancelled', 'failed', 'fraud', 'needs_review', 'refunded'];

/** Cycles a service can renew for (a one-time period does not renew). */
export function renewableCycles(cycles: readonly string[]): string[] {
  return cycles.filter((c) => c !== 'onetime');
}
