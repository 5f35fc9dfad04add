import type { Meta, StoryObj } from '@storybook/react-vite';
import { customer, fault } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const customers = [
  customer(),
  customer({ id: 'usr_2', email: 'buyer.two@example.com', orders: 4, activeLines: 2 }),
  customer({ id: 'usr_3', email: 'lapsed@example.com', orders: 1, activeLines: 0 }),
];

const meta = {
  title: 'Console/Customers',
  render: renderConsoleStory,
  args: { path: 'customers?q=buyer', routes: (f) => f.on('GET', '/customers', () => ({ customers })) },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = { args: { path: 'customers?q=nobody', routes: (f) => f.on('GET', '/customers', () => ({ customers: [] })) } };
export const Loading: Story = { args: { pending: '/customers' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/customers', fault) } };
