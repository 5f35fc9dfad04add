import type { Meta, StoryObj } from '@storybook/react-vite';
import { fault, order } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const orders = [
  order(),
  order({ id: 'ord_2', kind: 'renewal', email: 'second@example.com', invoiceId: 'inv_2', status: 'pending', invoiceStatus: 'unpaid' }),
  order({ id: 'ord_3', status: 'refunded', refunded: { amount: 1299, currency: 'EUR' }, net: { amount: 0, currency: 'EUR' } }),
];

const meta = {
  title: 'Console/Orders',
  render: renderConsoleStory,
  args: {
    path: 'orders',
    routes: (f) => f.on('GET', '/orders', () => ({ orders, nextCursor: 'c2', gateways: ['sandbox', 'stripe'] })),
  },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = {
  args: {
    path: 'orders?status=fraud',
    routes: (f) => f.on('GET', '/orders', () => ({ orders: [], nextCursor: '', gateways: ['sandbox'] })),
  },
};
export const Loading: Story = { args: { pending: '/orders' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/orders', fault) } };
