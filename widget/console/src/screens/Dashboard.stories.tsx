import type { Meta, StoryObj } from '@storybook/react-vite';
import { fault, summary } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const meta = {
  title: 'Console/Dashboard',
  render: renderConsoleStory,
  args: { path: '', routes: (f) => f.on('GET', '/summary', () => summary()) },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Quiet: Story = {
  args: {
    routes: (f) =>
      f.on('GET', '/summary', () =>
        summary({ heldOrders: 0, deadJobs: 0, failedJobs: 0, storedMails: 0, failedMails: 0, moneyToReview: 0, paidNotActive: 0 }),
      ),
  },
};
export const Loading: Story = { args: { pending: '/summary' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/summary', fault) } };
