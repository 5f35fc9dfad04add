import type { Meta, StoryObj } from '@storybook/react-vite';
import { drift, fault } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const drifts = [
  drift(),
  drift({ id: 8, kind: 'connections', want: '2', found: '5', action: 'failed', error: 'panel unavailable' }),
  drift({ id: 7, serviceId: '', username: 'stranger1', kind: 'unexplained', want: 'an order', found: 'a line', action: 'listed' }),
];

const meta = {
  title: 'Console/Line drift',
  render: renderConsoleStory,
  args: { path: 'line-drift', routes: (f) => f.on('GET', '/line-drift', () => ({ drifts, nextCursor: '' })) },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = { args: { routes: (f) => f.on('GET', '/line-drift', () => ({ drifts: [], nextCursor: '' })) } };
export const Loading: Story = { args: { pending: '/line-drift' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/line-drift', fault) } };
