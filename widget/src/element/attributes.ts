// Attributes → configuration, checked like untrusted input (a host page may set anything).
import type { Config } from '../core/state';

export const ATTRIBUTES = ['api', 'store', 'locale', 'currency', 'plan', 'promocode', 'routing', 'base'] as const;
export type AttributeName = (typeof ATTRIBUTES)[number];

export const DEFAULT_API = '/checkout/api';

export function readConfig(el: Element): Config {
  const get = (name: AttributeName) => {
    const v = el.getAttribute(name);
    return v === null || v.trim() === '' ? null : v.trim();
  };
  const plan = Number(get('plan'));
  return {
    api: get('api') ?? DEFAULT_API,
    store: get('store'),
    locale: get('locale'),
    currency: get('currency'),
    plan: Number.isInteger(plan) && plan > 0 ? plan : null,
    promocode: get('promocode'),
    routing: get('routing') === 'history' ? 'history' : 'memory',
    base: get('base') ?? '/',
  };
}
