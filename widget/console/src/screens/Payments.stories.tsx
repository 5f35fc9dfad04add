import type { Meta, StoryObj } from '@storybook/react-vite';
import { fault, payment } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const payments = [
  payment(),
  payment({ id: 'pay_2', orderId: 'ord_2', provider: 'coinbase', currency: 'USDC', amount: 1500, reason: 'over', refundable: false }),
];

const meta = {
  title: 'Console/Payments to review',
  render: renderConsoleStory,
  args: { path: 'payments', routes: (f) => f.on('GET', '/payments', () => ({ payments })) },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Viewer: Story = { args: { role: 'viewer' } };
export const Empty: Story = { args: { routes: (f) => f.on('GET', '/payments', () => ({ payments: [] })) } };
export const Loading: Story = { args: { pending: '/payments' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/payments', fault) } };
