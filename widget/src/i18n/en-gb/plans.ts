import { texts as en, type PlansTexts } from '../en/plans';

/** British English: en with British spelling. */
export const texts: PlansTexts = {
  ...en,
  choosePlanLead: 'Every plan includes all channels, HD and 4K streams and round-the-clock support.',
};
