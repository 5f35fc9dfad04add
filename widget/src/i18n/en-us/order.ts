import { texts as en, type OrderTexts } from '../en/order';

/** US English: en with American spelling. */
export const texts: OrderTexts = {
  ...en,
  statusCancelled: 'This order was canceled.',
  statuses: { ...en.statuses, Cancelled: 'Canceled' },
  setupSteps: [
    en.setupSteps[0],
    en.setupSteps[1],
    'Choose a channel and enjoy. Our favorite tip: add channels to your favorites for quick access.',
  ],
};
