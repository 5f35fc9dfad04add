import { texts as en, type CheckoutTexts } from '../en/checkout';

/** British English: en with British spelling. */
export const texts: CheckoutTexts = {
  ...en,
  customize: 'Customise your plan',
};
