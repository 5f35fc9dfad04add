import type { Meta, StoryObj } from '@storybook/react-vite';
import { errorBody, line, order, orderDetail } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const refunds = { refunds: [], refunded: { amount: 0, currency: 'EUR' } };

const meta = {
  title: 'Console/Order detail',
  render: renderConsoleStory,
  args: {
    path: 'orders/ord_1',
    routes: (f) => f.on('GET', '/orders/:id', () => orderDetail()).on('GET', '/orders/:id/refunds', () => refunds),
  },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Paid: Story = {};
/** A renewal order: the line it renews (made by the first order), its service id linking to it in Subscriptions; a viewer sees the username masked. */
export const RenewalWithItsLine: Story = {
  args: {
    path: 'orders/ord_2',
    role: 'viewer',
    routes: (f) =>
      f
        .on('GET', '/orders/:id', () =>
          orderDetail(order({ id: 'ord_2', kind: 'renewal' }), {
            lines: [line({ orderId: 'ord_1', username: '••••', password: '••••', status: 'Overdue' })],
          }),
        )
        .on('GET', '/orders/:id/refunds', () => refunds),
  },
};
/** WHMCS bills the lines: no extend (WHMCS's cron owns due dates). */
export const WHMCSBilled: Story = {
  args: {
    routes: (f) => {
      f.billing = 'whmcs';
      return meta.args.routes(f);
    },
  },
};
/** Every kind of item the server words in parts: the plan and its cycle, extras, proxy, a promotion, tax on top. */
export const Itemised: Story = {
  args: {
    routes: (f) => {
      const eur = (amount: number) => ({ amount, currency: 'EUR' });
      const o = order({ total: eur(2380) });
      return f
        .on('GET', '/orders/:id', () =>
          orderDetail(o, {
            items: [
              {
                kind: 'plan',
                description: 'Free Trial — Quarterly',
                args: ['plan', 'Free Trial', 'quarterly'],
                quantity: 1,
                unitAmount: eur(1500),
                amount: eur(1500),
              },
              {
                kind: 'extra',
                description: '2 extra connections',
                args: ['extra', '2'],
                quantity: 2,
                unitAmount: eur(250),
                amount: eur(500),
              },
              { kind: 'proxy', description: 'Proxy protection', args: ['proxy'], quantity: 1, unitAmount: eur(200), amount: eur(200) },
              {
                kind: 'discount',
                description: 'Promotion WELCOME',
                args: ['promotion', 'WELCOME'],
                quantity: 1,
                unitAmount: eur(-200),
                amount: eur(-200),
              },
              { kind: 'tax', description: 'VAT 19% (DE)', args: ['tax', '19', 'DE'], quantity: 1, unitAmount: eur(380), amount: eur(380) },
            ],
          }),
        )
        .on('GET', '/orders/:id/refunds', () => refunds);
    },
  },
};
export const Refunded: Story = {
  args: {
    routes: (f) => {
      const o = order({ status: 'refunded', refunded: { amount: 1299, currency: 'EUR' }, net: { amount: 0, currency: 'EUR' } });
      return f
        .on('GET', '/orders/:id', () => orderDetail(o, { lines: [] }))
        .on('GET', '/orders/:id/refunds', () => ({
          refunds: [
            {
              orderId: 'ord_1',
              amount: { amount: 1299, currency: 'EUR' },
              method: 'sandbox',
              reference: 'ref_1',
              reason: 'asked by phone',
              note: '',
              operator: 'me@example.com',
              createdAt: '2026-11-21T10:00:00Z',
            },
          ],
          refunded: { amount: 1299, currency: 'EUR' },
        }));
    },
  },
};
export const Loading: Story = { args: { pending: '/orders/ord_1' } };
export const NotFound: Story = {
  args: {
    path: 'orders/ord_404',
    routes: (f) => f.on('GET', '/orders/:id', () => ({ status: 404, body: errorBody('not_found', 'no order ord_404') })),
  },
};
