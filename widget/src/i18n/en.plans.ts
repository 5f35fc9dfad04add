// The English texts the first script needs: the plan cards and the views it shows by itself (loading,
// error, not found, an order under way). In the script-tag builds these are all the English the
// first script carries; the whole tables (en.ts, en-us.ts, en-gb.ts) come with dist/checkout.js and
// complete them (english.lazy.ts).
export const enPlans = {
  choosePlan: 'Choose your plan',
  choosePlanLead: 'Every plan includes all channels, HD and 4K streams and 24/7 support.',
  plansLabel: 'Plans',
  freeTrial: 'Free trial',
  free: 'Free',
  noCreditCard: 'No credit card required',
  selected: 'Selected',
  select: 'Select',
  noPlans: 'No plans are available right now. Please check back soon.',
  cycles: {
    monthly: 'Monthly',
    quarterly: 'Quarterly',
    semiannually: 'Every 6 months',
    annually: 'Yearly',
    biennially: 'Every 2 years',
    triennially: 'Every 3 years',
    onetime: 'One-time payment',
  },
  perCycle: {
    monthly: 'per month',
    quarterly: 'per 3 months',
    semiannually: 'per 6 months',
    annually: 'per year',
    biennially: 'per 2 years',
    triennially: 'per 3 years',
    onetime: 'one-time',
  },
  loading: 'Loading…',
  backHome: 'Back to the home page',
  errorTitle: 'Something went wrong',
  errorText: 'We could not load this part of the checkout. Please try again.',
  tryAgain: 'Try again',
  credits: (n: number) => `${n} credits`,
  manageServices: 'Manage my services',
  alreadyCustomer: 'Already a customer?',
  // API error names double as keys.
  errors: {
    not_found: 'We could not find what you were looking for.',
    not_applicable: 'This Coupon is not available for this product.',
    invalid_email: 'Please enter a Valid Email.',
    price_changed: 'The price has changed. Please review your order.',
    bad_request: 'This option is not available. Please change your selection.',
    unauthorized: 'Your session has expired. Please try again.',
    conflict: 'This order can no longer be changed.',
    idempotency_mismatch: 'This order was already submitted with different details. Please try again.',
    trial_used: 'You have already used your free trial. Please choose a plan to continue.',
    unknown_currency: 'This currency is not supported.',
    unavailable: 'The service is busy right now. Please try again in a moment.',
    internal: 'Something went wrong on our side. Please try again.',
    network: 'We could not reach the server. Please check your connection.',
    timeout: 'The server took too long to answer. Please try again.',
    malformed: 'We received an unexpected answer from the server.',
  },
};

/** British English differs from en in one text of the plan page (en-gb.ts takes it from here). */
export const enGBPlans = { ...enPlans, choosePlanLead: 'Every plan includes all channels, HD and 4K streams and round-the-clock support.' };
