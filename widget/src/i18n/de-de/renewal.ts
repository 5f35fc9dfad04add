import type { renewal as en } from '../en/renewal';

// What renews, worded once for the checkout's disclosure and the receipt.
export const renewal: typeof en = {
  thenEvery: (amount, every) => `Danach ${amount} ${every}, bis Sie kündigen.`,
  renewEvery: {
    monthly: 'jeden Monat',
    quarterly: 'alle 3 Monate',
    semiannually: 'alle 6 Monate',
    annually: 'jedes Jahr',
    biennially: 'alle 2 Jahre',
    triennially: 'alle 3 Jahre',
    onetime: 'einmalig',
  },
};
