// The copy button of a credential: "Copy", then "Copied!" for 2.5 s.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { inFrame } from '../test/story/Frame';
import { CopyButton } from './CopyButton';

const meta = {
  title: 'UI/CopyButton',
  component: CopyButton,
  render: inFrame(CopyButton),
  args: { value: 'sc91692420', label: 'Username' },
} satisfies Meta<typeof CopyButton>;
export default meta;
type Story = StoryObj<typeof meta>;

/** At rest: "Copy", labelled with the field it copies. */
export const Default: Story = {};
