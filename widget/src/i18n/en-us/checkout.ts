import { texts as en, type CheckoutTexts } from '../en/checkout';

/** US English: en with American spelling. */
export const texts: CheckoutTexts = {
  ...en,
  customize: 'Customize your plan',
};
