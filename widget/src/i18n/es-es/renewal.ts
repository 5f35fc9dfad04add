import type { renewal as en } from '../en/renewal';

// What renews, worded once for the checkout's disclosure and the receipt.
export const renewal: typeof en = {
  thenEvery: (amount, every) => `Después, ${amount} ${every} hasta que canceles.`,
  renewEvery: {
    monthly: 'cada mes',
    quarterly: 'cada 3 meses',
    semiannually: 'cada 6 meses',
    annually: 'cada año',
    biennially: 'cada 2 años',
    triennially: 'cada 3 años',
    onetime: 'una vez',
  },
};
