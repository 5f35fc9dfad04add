import type { Meta, StoryObj } from '@storybook/react-vite';
import { fault, mail } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const mails = [
  mail(),
  mail({ id: 10, subject: 'Your renewal invoice', status: 'failed', attempts: 3, lastError: '550 mailbox unavailable', sentAt: '' }),
  mail({ id: 11, to: 'other@example.com', subject: 'Sign in to your account', status: 'stored', attempts: 0, sentAt: '' }),
];

const meta = {
  title: 'Console/Mail',
  render: renderConsoleStory,
  args: { path: 'mail', routes: (f) => f.on('GET', '/mail', () => ({ mails, nextCursor: '' })) },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = {
  args: { path: 'mail?status=failed', routes: (f) => f.on('GET', '/mail', () => ({ mails: [], nextCursor: '' })) },
};
export const Loading: Story = { args: { pending: '/mail' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/mail', fault) } };
