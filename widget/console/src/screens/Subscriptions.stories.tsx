import type { Meta, StoryObj } from '@storybook/react-vite';
import { fault, subscription } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const meta = {
  title: 'Console/Subscriptions',
  render: renderConsoleStory,
  args: {
    path: 'subscriptions',
    routes: (f) =>
      f.on('GET', '/services', () => ({
        services: [
          subscription(),
          subscription({ serviceId: 'svc_2', status: 'Overdue', overdueDays: 3, autoRenew: false, renewalInvoiceId: 'inv_9' }),
          subscription({ serviceId: 'svc_3', status: 'Suspended', renewsWithCard: true, macAddress: '' }),
          // The saved card was declined at the due day: the renewal waits for the pay link.
          subscription({
            serviceId: 'svc_4',
            status: 'Overdue',
            overdueDays: 1,
            renewsWithCard: true,
            renewalInvoiceId: 'inv_10',
            renewalCardCharge: 'declined',
          }),
        ],
        nextCursor: '',
      })),
  },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Viewer: Story = { args: { role: 'viewer' } };
/** WHMCS bills the lines: no change or extend (WHMCS owns prices and due dates). */
export const WHMCSBilled: Story = {
  args: {
    routes: (f) => {
      f.billing = 'whmcs';
      return meta.args.routes(f);
    },
  },
};
/** WHMCS could not be read: its lines come without their next due date, and the screen says so. */
export const WHMCSDueDatesUnavailable: Story = {
  args: {
    routes: (f) => {
      f.billing = 'whmcs';
      return f.on('GET', '/services', () => ({
        services: [
          subscription({ nextDueDate: '', overdueDays: 0 }),
          subscription({ serviceId: 'svc_2', nextDueDate: '', overdueDays: 0, autoRenew: false }),
        ],
        nextCursor: '',
        dueDatesUnavailable: true,
      }));
    },
  },
};
export const Empty: Story = {
  args: { path: 'subscriptions?status=Overdue', routes: (f) => f.on('GET', '/services', () => ({ services: [], nextCursor: '' })) },
};
export const Loading: Story = { args: { pending: '/services' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/services', fault) } };
