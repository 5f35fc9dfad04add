// After Pay: creating the order, waiting for payment, the success page and the login details.
// The reference table of its area: every locale is typed against it, so a missing key fails `tsc`.

import { renewal } from './renewal';

export const texts = {
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
  statusDetails: 'Getting your login details…',
  statusActive: 'Your subscription is ready.',
  statusCancelled: 'This order was cancelled.',
  statusRefunded: 'This order was refunded.',
  statusFailed: 'The payment did not go through.',
  // A payment's state at the provider while the order waits, keyed by the API's paymentState.
  paymentStates: {
    processing: 'Payment seen. Confirming it…',
  },
  endedHint: 'Nothing has been charged. You can choose a plan and try again.',
  refundedHint: 'The money has gone back to how you paid. Its credit note is under Orders and invoices in My services.',
  // The order's page opened without a session for it (the order mail's link on another device).
  signInToSee: 'Sign in to see this order',
  signInToSeeLead:
    'This browser has no session for it: the link opens the order where you bought it. Sign in with your email address to see your services, orders and invoices here.',
  signInToSeeAction: 'Sign in',
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
  // The receipt on the success page (issue 25).
  receiptTitle: 'Your receipt',
  receiptDiscount: (code: string) => `Discount (${code})`,
  receiptExtra: (n: number) => (n === 1 ? '1 extra connection' : `${n} extra connections`),
  receiptProxy: 'Proxy protection',
  // A renewal's line (a WHMCS invoice's) and a plan change's, from their parts.
  receiptRenewal: (name: string, cycle: string, due: string) =>
    [`Renewal of ${name}`, cycle, due && `due ${due}`].filter(Boolean).join(', '),
  receiptChange: (from: string, to: string, cycle: string, n: number, until: string) =>
    `Change of ${from} to ${to}, ${[cycle, n === 1 ? '1 connection' : `${n} connections`].filter(Boolean).join(', ')}, until ${until}`,
  receiptNet: 'Net',
  receiptTax: (rate: string, country: string) => `VAT ${rate}% (${country})`,
  receiptTotal: 'Total paid',
  paidWith: 'Payment method',
  invoiceNumber: 'Invoice number',
  orderDate: 'Date',
  downloadInvoice: 'Download invoice',
  creditNote: 'Credit note',
  thenEvery: renewal.thenEvery,
  renewEvery: renewal.renewEvery,
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
  // Cancelling an unpaid order
  cancelOrder: 'Cancel order',
  cancelConfirm: 'Cancel this order? Nothing has been charged for it.',
  cancelYes: 'Yes, cancel it',
  cancelNo: 'Keep the order',
};

export type OrderTexts = typeof texts;
