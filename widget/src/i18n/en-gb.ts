import { en, type Messages } from './en';
import { enGBPlans } from './en.plans';

/** British English: en with British spelling. */
export const enGB: Messages = {
  ...en,
  ...enGBPlans,
  customize: 'Customise your plan',
  setupSteps: [
    'Install one of the apps below on your TV, mobile or computer.',
    en.setupSteps[1],
    'Choose a channel and enjoy. Our favourite tip: add channels to your favourites for quick access.',
  ],
};
