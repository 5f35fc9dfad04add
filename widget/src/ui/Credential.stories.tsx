// One credential of the success page and the services view: label, value, copy button.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { inFrame } from '../test/story/Frame';
import { Credential } from './Credential';

const meta = {
  title: 'UI/Credential',
  component: Credential,
  render: inFrame(Credential),
  args: { label: 'Username', value: 'sc91692420', testId: 'cred-username' },
} satisfies Meta<typeof Credential>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Username: Story = {};

/** A long value (a server address) wraps inside its box. */
export const LongValue: Story = {
  args: { label: 'Server', value: 'http://line.streamcart-example.tv:8080/get.php?username=sc91692420', testId: 'cred-server' },
};
