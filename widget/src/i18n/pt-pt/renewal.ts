import type { renewal as en } from '../en/renewal';

// What renews, worded once for the checkout's disclosure and the receipt.
export const renewal: typeof en = {
  thenEvery: (amount, every) => `Depois, ${amount} ${every} até cancelar.`,
  renewEvery: {
    monthly: 'todos os meses',
    quarterly: 'a cada 3 meses',
    semiannually: 'a cada 6 meses',
    annually: 'todos os anos',
    biennially: 'a cada 2 anos',
    triennially: 'a cada 3 anos',
    onetime: 'uma vez',
  },
};
