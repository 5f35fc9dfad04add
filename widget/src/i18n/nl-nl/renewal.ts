import type { renewal as en } from '../en/renewal';

// What renews, worded once for the checkout's disclosure and the receipt.
export const renewal: typeof en = {
  thenEvery: (amount, every) => `Daarna ${amount} ${every} tot je opzegt.`,
  renewEvery: {
    monthly: 'elke maand',
    quarterly: 'elke 3 maanden',
    semiannually: 'elke 6 maanden',
    annually: 'elk jaar',
    biennially: 'elke 2 jaar',
    triennially: 'elke 3 jaar',
    onetime: 'eenmalig',
  },
};
