import type { Meta, StoryObj } from '@storybook/react-vite';
import { errorBody, operator } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const operators = [
  operator(),
  operator({ email: 'help@example.com', role: 'support' }),
  operator({ email: 'new@example.com', role: 'viewer', status: 'pending' }),
  operator({ email: 'gone@example.com', role: 'support', status: 'disabled', disabledAt: '2026-11-25T09:00:00Z' }),
];

const meta = {
  title: 'Console/Operators',
  render: renderConsoleStory,
  args: { path: 'operators', routes: (f) => f.on('GET', '/operators', () => ({ operators })) },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
/** The first owner alone, before inviting anyone. */
export const OwnerAlone: Story = { args: { routes: (f) => f.on('GET', '/operators', () => ({ operators: [operator()] })) } };
export const Loading: Story = { args: { pending: '/operators' } };
/** Operators are the owner's: another role is told so. */
export const Forbidden: Story = {
  args: { role: 'support', routes: (f) => f.on('GET', '/operators', () => ({ status: 403, body: errorBody('forbidden') })) },
};
