import type { Meta, StoryObj } from '@storybook/react-vite';
import { fault, order } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const held = [
  order({ id: 'ord_7', status: 'fraud', email: 'many@mailinator.com', invoiceStatus: 'unpaid', paidAt: '' }),
  order({ id: 'ord_8', status: 'fraud', email: 'again@example.com', gateway: 'stripe', invoiceStatus: 'paid' }),
];

const meta = {
  title: 'Console/Held orders',
  render: renderConsoleStory,
  args: { path: 'held', routes: (f) => f.on('GET', '/orders', () => ({ orders: held, nextCursor: '', gateways: ['sandbox', 'stripe'] })) },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Viewer: Story = { args: { role: 'viewer' } };
export const Empty: Story = {
  args: { routes: (f) => f.on('GET', '/orders', () => ({ orders: [], nextCursor: '', gateways: ['sandbox'] })) },
};
export const Loading: Story = { args: { pending: '/orders' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/orders', fault) } };
