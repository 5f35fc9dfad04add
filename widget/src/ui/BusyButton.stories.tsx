// A button of actions that run one at a time: idle, running (busy), and waiting for another.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { inFrame } from '../test/story/Frame';
import { BusyButton } from './BusyButton';

const meta = {
  title: 'UI/BusyButton',
  component: BusyButton,
  render: inFrame(BusyButton),
  args: { children: 'Restart', busyLabel: 'Working…', className: 'sc-btn sc-btn-ghost sc-btn-small', testId: 'busy-button' },
} satisfies Meta<typeof BusyButton>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Idle: Story = {};

/** Its action runs: it says so and ignores clicks. */
export const Busy: Story = { args: { busy: true } };

/** Another action of the card runs: still focusable, aria-disabled. */
export const Blocked: Story = { args: { blocked: true } };
