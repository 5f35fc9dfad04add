import type { Meta, StoryObj } from '@storybook/react-vite';
import { summary } from '../test/fakeApi';
import { ConsoleStory, type ConsoleStoryProps } from '../test/story';

const meta = {
  title: 'Console/Dashboard',
  render: (args) => <ConsoleStory {...args} />,
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
