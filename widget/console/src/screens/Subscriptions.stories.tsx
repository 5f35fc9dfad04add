import type { Meta, StoryObj } from '@storybook/react-vite';
import { subscription } from '../test/fakeApi';
import { ConsoleStory, type ConsoleStoryProps } from '../test/story';

const meta = {
  title: 'Console/Subscriptions',
  render: (args) => <ConsoleStory {...args} />,
  args: {
    path: 'subscriptions',
    routes: (f) =>
      f.on('GET', '/services', () => ({
        services: [
          subscription(),
          subscription({ serviceId: 'svc_2', status: 'Overdue', overdueDays: 3, autoRenew: false, renewalInvoiceId: 'inv_9' }),
          subscription({ serviceId: 'svc_3', status: 'Suspended', renewsWithCard: true, macAddress: '' }),
        ],
        nextCursor: '',
      })),
  },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Viewer: Story = { args: { role: 'viewer' } };
