import type { Meta, StoryObj } from '@storybook/react-vite';
import { customer, customerDetail, errorBody, line, order } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const meta = {
  title: 'Console/Customer',
  render: renderConsoleStory,
  args: {
    path: 'customers/usr_1',
    routes: (f) =>
      f.on('GET', '/customers/:id', () =>
        customerDetail({
          customer: customer({ orders: 2, activeLines: 1 }),
          orders: [order(), order({ id: 'ord_2', kind: 'renewal', status: 'pending', invoiceId: 'inv_2', invoiceStatus: 'unpaid' })],
          services: [line(), line({ serviceId: 'svc_2', status: 'Suspended', username: 'user2' })],
        }),
      ),
  },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
/** A customer who signed up and never bought: every list says it is empty. */
export const Empty: Story = {
  args: {
    path: 'customers/usr_9',
    routes: (f) =>
      f.on('GET', '/customers/:id', () =>
        customerDetail({
          customer: customer({ id: 'usr_9', email: 'new@example.com', orders: 0, activeLines: 0 }),
          orders: [],
          services: [],
          sessions: [],
        }),
      ),
  },
};
export const Loading: Story = { args: { pending: '/customers/usr_1' } };
export const NotFound: Story = {
  args: {
    path: 'customers/usr_404',
    routes: (f) => f.on('GET', '/customers/:id', () => ({ status: 404, body: errorBody('not_found', 'no customer usr_404') })),
  },
};
