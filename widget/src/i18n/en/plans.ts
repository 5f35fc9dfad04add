// The plan page and what every screen shares (errors, loading, cycles): the first paint's texts.
// The reference table of its area: every locale is typed against it, so a missing key fails `tsc`.

export const texts = {
  // The plan page and the generic views
  choosePlan: 'Choose your plan',
  choosePlanLead: 'Every plan includes all channels, HD and 4K streams and 24/7 support.',
  plansLabel: 'Plans',
  freeTrial: 'Free trial',
  free: 'Free',
  noCreditCard: 'No credit card required',
  selected: 'Selected',
  select: 'Select',
  unavailable: 'Temporarily unavailable',
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
    unauthorized: 'Your session has expired. Please try again.',
    unknown_currency: 'This currency is not supported.',
    unavailable: 'The service is busy right now. Please try again in a moment.',
    internal: 'Something went wrong on our side. Please try again.',
    network: 'We could not reach the server. Please check your connection.',
    timeout: 'The server took too long to answer. Please try again.',
    malformed: 'We received an unexpected answer from the server.',
  },
  processing: 'Processing…',
  // Generic views
  notFound: 'This page could not be found',
  resellerTitle: 'Reseller plans',
  resellerLead: 'Buy credits to create and manage subscriptions for your own customers.',
};

export type PlansTexts = typeof texts;
