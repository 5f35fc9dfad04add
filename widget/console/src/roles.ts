// What each role may do, as the server's ladon policies say (api/authz/operator.go, docs/console.md):
// the console hides or disables what the operator's role may not do; the server refuses it anyway.
import type { Role } from './schemas';

const SUPPORT = [
  'readCredentials',
  'resendMail',
  'signinLink',
  'retryJob',
  'suspend',
  'unsuspend',
  'extend',
  'signoutCustomer',
  'autoRenew',
  'renewalLink',
  'changeAtRenewal',
  'requestPayment',
] as const;
const OWNER = [
  'cancelJob',
  'terminate',
  'refund',
  'approve',
  'provisionUnpaid',
  'reject',
  'editCatalog',
  'editPromotions',
  'manageOperators',
  'change',
  'readSettings',
] as const;

export type Action = (typeof SUPPORT)[number] | (typeof OWNER)[number];

const ALLOWED: Record<Role, ReadonlySet<Action>> = {
  viewer: new Set(),
  support: new Set(SUPPORT),
  owner: new Set([...SUPPORT, ...OWNER]),
};

export function can(role: Role, action: Action): boolean {
  return ALLOWED[role].has(action);
}
