import type { Meta, StoryObj } from '@storybook/react-vite';
import { fault, webhook } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const webhooks = [
  webhook(),
  webhook({ id: 5, provider: 'cryptomus', eventId: 'cm_1', outcome: 'failed', detail: 'signature mismatch', processedAt: '' }),
];

const meta = {
  title: 'Console/Webhooks',
  render: renderConsoleStory,
  args: { path: 'webhooks', routes: (f) => f.on('GET', '/webhooks', () => ({ webhooks, nextCursor: '' })) },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = { args: { routes: (f) => f.on('GET', '/webhooks', () => ({ webhooks: [], nextCursor: '' })) } };
export const Loading: Story = { args: { pending: '/webhooks' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/webhooks', fault) } };
