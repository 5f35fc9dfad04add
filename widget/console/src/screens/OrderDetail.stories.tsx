import type { Meta, StoryObj } from '@storybook/react-vite';
import { errorBody, order, orderDetail } from '../test/fakeApi';
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
/** WHMCS bills the lines: no extend (WHMCS's cron owns due dates). */
export const WHMCSBilled: Story = {
  args: {
    routes: (f) => {
      f.billing = 'whmcs';
      return meta.args.routes(f);
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
