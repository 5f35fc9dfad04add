// What renews, worded once: the checkout's disclosure and the receipt both take these (each
// area's table names them), so the cycle reads the same before and after paying.
export const renewal = {
  thenEvery: (amount: string, every: string) => `Then ${amount} ${every} until you cancel.`,
  renewEvery: {
    monthly: 'each month',
    quarterly: 'every 3 months',
    semiannually: 'every 6 months',
    annually: 'each year',
    biennially: 'every 2 years',
    triennially: 'every 3 years',
    onetime: 'once',
  },
};
