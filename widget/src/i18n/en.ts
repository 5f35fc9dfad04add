// The reference table: every other locale is typed against it, so a missing key fails `tsc`.
// Strings with parameters are functions; amounts and dates arrive already formatted with Intl.

export const en = {
  // The plan page and the generic views
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

  // Plan grid
  billingCycle: 'Billing cycle',

  // Options
  customize: 'Customize your plan',
  extraConnections: 'Extra connections',
  extraConnectionsHint: (price: string) => `Watch on more devices at the same time. ${price} per extra connection.`,
  connections: 'Connections',
  connectionsHint: (extra: number) =>
    extra === 0 ? 'One connection is included.' : extra === 1 ? '1 included + 1 extra' : `1 included + ${extra} extra`,
  fewerConnections: 'Fewer connections',
  moreConnections: 'More connections',
  proxyProtection: 'Proxy protection',
  proxyProtectionHint: (price: string) => `Keeps your streams private and unblocked. ${price}.`,

  // Details
  yourDetails: 'Your details',
  email: 'Email address',
  emailPlaceholder: 'you@example.com',
  emailHint: 'We send your login details and receipt to this address.',
  emailRequired: 'Please enter your email address.',
  subscribe: 'Send me news and special offers by email',

  // Promo code
  promoCode: 'Promo code',
  promoPlaceholder: 'Enter your code',
  apply: 'Apply',
  remove: 'Remove',
  promoApplied: (code: string, value: string) => `Code ${code} applied: ${value} off.`,
  promoChecking: 'Checking code…',

  // Payment
  paymentMethod: 'Payment method',
  summary: 'Order summary',
  subtotal: 'Subtotal',
  discount: (code: string) => `Discount (${code})`,
  total: 'Total',
  approx: (amount: string) => `≈ ${amount}`,
  rate: (from: string, rate: string, to: string) => `1 ${from} = ${rate} ${to}`,
  lineExtraConnections: (n: number) => (n === 1 ? '1 extra connection' : `${n} extra connections`),
  lineProxy: 'Proxy protection',
  pay: (amount: string) => `Pay ${amount}`,
  startTrial: 'Start free trial',
  processing: 'Processing…',
  updatingPrice: 'Updating price…',
  secure: 'Secure checkout. Your payment is processed by our payment partner.',
  priceChanged: (total: string) => `The price has changed to ${total}. Please confirm the new price to continue.`,
  confirmPrice: 'Confirm new price',
  trialNote: 'Try the full service for free. No payment details needed.',
  // Automatic card renewal (Stripe): off unless ticked
  renewWithCard: 'Renew automatically with this card',
  renewWithCardConsent: (every: string) =>
    `We will charge this card ${every} on the due date until you cancel auto-renew in "My services". You can cancel at any time before a due date.`,
  renewEvery: {
    monthly: 'each month',
    quarterly: 'every 3 months',
    semiannually: 'every 6 months',
    annually: 'each year',
    biennially: 'every 2 years',
    triennially: 'every 3 years',
    onetime: 'once',
  },

  // Creating order
  creatingOrder: 'Creating your order…',
  creatingOrderHint: 'Please keep this page open.',
  redirecting: 'Taking you to the secure payment page…',
  completePayment: 'Complete your payment',
  backToPlans: 'Back to plans',

  // Waiting
  waitingTitle: 'Almost there',
  statusPending: 'Waiting for your payment to be confirmed…',
  statusPaid: 'Payment received. Setting up your subscription…',
  statusProvisioning: 'Setting up your subscription…',
  statusActive: 'Your subscription is ready.',
  statusCancelled: 'This order was cancelled.',
  statusFailed: 'The payment did not go through.',
  endedHint: 'Nothing has been charged. You can choose a plan and try again.',
  waitingHint: 'This page updates by itself. It usually takes less than a minute.',
  orderNumber: (id: string) => `Order ${id}`,
  payCrypto: (amount: string, currency: string, network: string, from: string, rate: string) =>
    `To pay: ${amount} ${currency} on ${network} (1 ${from} = ${rate} ${currency})`,
  fraudTitle: 'We could not complete your order',
  fraudText:
    'Your order has been held for a manual review. No payment has been taken for a held order. Please contact our support team and mention your order number.',
  reviewTitle: 'We received a payment this order can no longer take',
  reviewText: 'Your payment will be refunded. If you have any questions, please contact our support team and mention your order number.',
  contactSupport: 'Contact support',

  // Success
  successTitle: 'Welcome aboard!',
  successLead: 'Your subscription is active. Here is everything you need to start watching.',
  credentials: 'Your login details',
  username: 'Username',
  password: 'Password',
  server: 'Server URL',
  copy: 'Copy',
  copied: 'Copied!',
  copyField: (field: string) => `Copy ${field}`,
  downloadM3u: 'Download M3U playlist',
  downloading: 'Downloading…',
  plan: 'Plan',
  status: 'Status',
  maxConnections: 'Connections',
  nextDueDate: 'Next due date',
  billing: 'Billing',
  statuses: {
    Pending: 'Pending',
    Active: 'Active',
    Suspended: 'Suspended',
    Cancelled: 'Cancelled',
    Terminated: 'Terminated',
    Overdue: 'Overdue',
    Expired: 'Expired',
  },
  setupTitle: 'Set up in three steps',
  setupSteps: [
    'Install one of the apps below on your TV, phone or computer.',
    'Sign in with the server URL, username and password above, or load the M3U playlist.',
    'Choose a channel and enjoy. Our favourite tip: add channels to your favourites for quick access.',
  ] as [string, string, string],
  apps: 'Get the app',
  resources: 'Helpful resources',
  dashboard: 'Go to your dashboard',
  credentialsPending: 'Your login details are being prepared. Please refresh in a moment.',

  // Generic views
  notFound: 'This page could not be found',
  upsellTitle: 'Upgrade your subscription',
  upsellText: 'Extra connections for an existing subscription are managed from your account dashboard.',
  resellerTitle: 'Reseller plans',
  resellerLead: 'Buy credits to create and manage subscriptions for your own customers.',

  // After the sale (the screens themselves load with their own tables)
  cancelOrder: 'Cancel order',
  cancelConfirm: 'Cancel this order? Nothing has been charged for it.',
  cancelYes: 'Yes, cancel it',
  cancelNo: 'Keep the order',
};

export type Messages = typeof en;
export type ErrorName = keyof Messages['errors'];
