import { en, type Messages } from './en';

/** British English: en with British spelling. */
export const enGB: Messages = {
  ...en,
  choosePlanLead: 'Every plan includes all channels, HD and 4K streams and round-the-clock support.',
  customize: 'Customise your plan',
  setupSteps: [
    'Install one of the apps below on your TV, mobile or computer.',
    en.setupSteps[1],
    'Choose a channel and enjoy. Our favourite tip: add channels to your favourites for quick access.',
  ],
};
