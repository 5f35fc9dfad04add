// The checkout form: options, details, promo code, summary and payment.
// The reference table of its area: every locale is typed against it, so a missing key fails `tsc`.

import { texts as plans } from './plans';
import { renewal } from './renewal';

export const texts = {
  // Billing cycle (the plan grid of the form)
  billingCycle: 'Billing cycle',
  // Options
  customize: 'Customize your plan',
  extraConnections: 'Extra connections',
  extraConnectionsHint: (price: string) => `Watch on more devices at the same time: ${price} for each extra connection.`,
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
  // Payment
  paymentMethod: 'Payment method',
  summary: 'Order summary',
  subtotal: 'Subtotal',
  discount: (code: string) => `Discount (${code})`,
  total: 'Total',
  // Tax (a catalog with a tax block): the summary's net and tax, the billing country
  net: 'Net',
  taxLine: (rate: string, country: string) => `VAT ${rate}% (${country})`,
  billingCountry: 'Billing country',
  billingCountryHint: 'The country of your billing address: its VAT applies.',
  chooseCountry: 'Choose your country',
  confirmCountry: (chosen: string, located: string) =>
    `I confirm that my billing address is in ${chosen} (my connection appears to come from ${located}).`,
  countryRequired: 'Please choose the country of your billing address.',
  confirmCountryRequired: 'Please confirm your billing country.',
  approx: (amount: string) => `≈ ${amount}`,
  rate: (from: string, rate: string, to: string) => `1 ${from} = ${rate} ${to}`,
  lineExtraConnections: (n: number) => (n === 1 ? '1 extra connection' : `${n} extra connections`),
  lineProxy: 'Proxy protection',
  pay: (amount: string) => `Pay ${amount}`,
  startTrial: 'Start free trial',
  updatingPrice: 'Updating price…',
  secure: 'Secure checkout. Your payment is processed by our payment partner.',
  priceChanged: (total: string) => `The price has changed to ${total}. Please confirm the new price to continue.`,
  confirmPrice: 'Confirm new price',
  trialNote: 'Try the full service for free. No payment details needed.',
  // Automatic card renewal (Stripe): off unless ticked
  renewWithCard: 'Renew automatically with this card',
  renewWithCardConsent: (every: string) =>
    `We will charge this card ${every} on the due date until you cancel auto-renew in "My services". You can cancel at any time before a due date.`,
  // What is charged today and what renews (summary, plan cards, consent at Pay)
  dueToday: 'Due today',
  thenEvery: renewal.thenEvery,
  cardRenews: (today: string, then: string, every: string) => `${today} today, then ${then} ${every} until you cancel`,
  noRenewal: 'One-time payment: it does not renew.',
  trialEnds: 'When the free trial ends, it simply stops: nothing is charged and nothing renews.',
  perMonth: (amount: string) => `${amount}/month`,
  pricePer: (amount: string, per: string) => `${amount} ${per}`,
  // Savings name what they are compared with: the monthly price over the same months.
  saveVsMonthly: (pct: number, months: number, monthly: string) => `Save ${pct}% vs. ${months} months at ${monthly}`,
  saveShort: (pct: number) => `save ${pct}% vs. monthly`,
  termsName: 'Terms of Service',
  consentRenews: <T>(terms: T, amount: string, every: string): (string | T)[] => [
    'By paying, you agree to the ',
    terms,
    `. Your plan renews ${every} at ${amount} until you cancel it in “My services”; we send an invoice before each due date.`,
  ],
  consentOnce: <T>(terms: T): (string | T)[] => ['By paying, you agree to the ', terms, '. One-time payment: it does not renew.'],
  consentTrial: <T>(terms: T): (string | T)[] => [
    'By starting the free trial, you agree to the ',
    terms,
    '. It ends on its own: nothing is charged.',
  ],
  consentCheck: <T>(terms: T): (string | T)[] => ['I agree to the ', terms, ' and to the renewal terms above.'],
  consentRequired: 'Please accept the terms to continue.',
  renewEvery: renewal.renewEvery,
  // The checkout's API errors (names double as keys) beside the shared ones of the plan page.
  errors: {
    ...plans.errors,
    bad_request: 'This option is not available. Please change your selection.',
    conflict: 'This order can no longer be changed.',
    not_applicable: 'This Coupon is not available for this product.',
    invalid_email: 'Please enter a Valid Email.',
    price_changed: 'The price has changed. Please review your order.',
    idempotency_mismatch: 'This order was already submitted with different details. Please try again.',
    trial_used: 'You have already used your free trial. Please choose a plan to continue.',
    trial_unavailable: 'Free trials are not available for this email address. Please use your own email address or choose a plan.',
    out_of_stock: 'This plan is temporarily unavailable. Please try again later or choose another plan.',
    invalid_country: 'Please choose the country of your billing address from the list.',
    country_unconfirmed: 'Your billing country differs from where you are connecting from. Please confirm your billing country.',
  },
};

export type CheckoutTexts = typeof texts;
