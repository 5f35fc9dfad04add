import { texts as en, type OrderTexts } from '../en/order';

/** British English: en with British spelling. */
export const texts: OrderTexts = {
  ...en,
  setupSteps: [
    'Install one of the apps below on your TV, mobile or computer.',
    en.setupSteps[1],
    'Choose a channel and enjoy. Our favourite tip: add channels to your favourites for quick access.',
  ],
};
