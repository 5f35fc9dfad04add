// Texts of the after-sale screens (sign-in, services, upsell, resellers); every locale is typed
// against this table. Shared words (Total, Copy, statuses, cycles…) come from the main tables.
export const en = {
  // Sign-in
  signInTitle: 'Sign in to manage your services',
  signInLead: 'We email you a link that signs you in, or use your password.',
  upsellSignInLead: 'Sign in to add connections to your subscription.',
  byLink: 'Email me a link',
  byPassword: 'Use my password',
  sendLink: 'Send sign-in link',
  linkSent: 'If this email belongs to an account, a sign-in link is on its way. Check your inbox: the link works once, for 15 minutes.',
  password: 'Password',
  signIn: 'Sign in',
  signingIn: 'Signing you in…',
  passwordRequired: 'Please enter your password.',
  sessionExpired: 'Please sign in again to continue.',
  signedInAs: (email: string) => `Signed in as ${email}`,

  // Services
  servicesTitle: 'My services',
  servicesLead: 'Your subscriptions, their login details and device settings.',
  noServices: 'There are no services on this account yet.',
  expires: 'Expires',
  restart: 'Restart',
  recreate: 'Recreate',
  terminate: 'Terminate',
  working: 'Working…',
  restarted: 'The service was restarted.',
  recreated: 'The service was set up again with the same login details.',
  terminated: 'The service was terminated.',
  terminateConfirm: (name: string) => `Terminate ${name} for good? It stops working at once and cannot be restored.`,
  terminateYes: 'Yes, terminate',
  keep: 'Keep it',
  macAddress: 'Device MAC address',
  macHint: 'Six pairs of hex digits separated by ":" or "-", e.g. 00:1A:79:12:34:56.',
  saveMac: 'Save',
  macSaved: (mac: string) => `The MAC address is now ${mac}.`,
  addConnections: 'Add connections',

  // Upsell
  upsellTitle: 'Add connections',
  upsellLead: 'Watch on more devices at the same time. The price follows the billing cycle of your subscription.',
  noOffers: 'None of your active services can take more connections right now.',
  service: 'Subscription',
  extraConnections: 'Extra connections',
  connectionsNow: (n: number) => (n === 1 ? '1 connection now' : `${n} connections now`),
  connectionsAfter: (n: number) => `${n} connections after payment`,
  perConnection: (price: string, cycle: string) => `${price} per connection, ${cycle}`,
  upsellDoneTitle: 'Connections added',
  upsellDoneLead: (n: number) => `Your subscription now allows ${n} connections at the same time.`,
  upsellPending: 'Your payment is confirmed. The new connections are being added; this page updates by itself.',
  manage: 'Manage my services',

  // Resellers
  existingQuestion: 'Are you already one of our resellers?',
  yes: 'Yes',
  no: 'No',
  newResellerNote: 'New resellers also receive the one-time reseller account setup with their first plan.',
  isReseller: (balance: number) => `You are a reseller. Your balance: ${balance} credits.`,
  resellerPassword: 'Reseller password',
  confirmPassword: 'Confirm the password',
  passwordHint: 'At least 8 characters. It also signs you in to manage your account.',
  payNow: 'Continue to payment',
  monthlyNote: 'Billed at the monthly price of the chosen plan.',
  resellerDoneTitle: 'Your reseller plan is active',
  resellerDoneLead: (credits: number) => `${credits} credits have been added to your reseller account.`,
  account: 'Reseller account',
  balance: 'Credit balance',

  // API error names of these screens
  errors: {
    invalid_credentials: 'Wrong email or password.',
    too_many_attempts: 'Too many failed sign-in attempts. Please wait 15 minutes and try again.',
    invalid_link: 'This sign-in link is invalid, expired or already used. Please ask for a new one.',
    invalid_mac: 'Please enter a valid MAC address: six pairs of hex digits separated by ":" or "-", e.g. 00:1A:79:12:34:56.',
    password_mismatch: 'Not the same password',
    weak_password: 'Please choose a password of at least 8 characters.',
    conflict: 'This action is not available for this service right now.',
  },
};

export type AfterSaleMessages = typeof en;
