import type { Meta, StoryObj } from '@storybook/react-vite';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

// Signed out: any console path shows sign-in (role null: the fake has no session).
const meta = {
  title: 'Console/Sign-in',
  render: renderConsoleStory,
  args: { path: '', role: null, routes: (f) => f },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
/** The one-time setup link an owner sends a new operator: password first, then the authenticator. */
export const Setup: Story = { args: { path: 'setup?token=tok_1' } };
/** A setup link without its token. */
export const SetupWithoutToken: Story = { args: { path: 'setup' } };
