// The buyer's email on the checkout form: the verdict shows a moment after typing stops, on leaving
// the field, or at once when the pay button is pressed.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { inFrame } from '../test/story/Frame';
import { EmailField } from './EmailField';

/** The field as the checkout form holds it: its value in state. */
function Controlled({ initial, forced }: { initial: string; forced: number }) {
  const [value, setValue] = useState(initial);
  return <EmailField value={value} onChange={setValue} forced={forced} />;
}

const meta = {
  title: 'UI/EmailField',
  component: Controlled,
  render: inFrame(Controlled),
  args: { initial: '', forced: 0 },
} satisfies Meta<typeof Controlled>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Empty: Story = {};

export const Valid: Story = { args: { initial: 'buyer@example.com' } };

/** Spec §5: "Please enter a Valid Email." above the field. */
export const Invalid: Story = { args: { initial: 'buyer@example' } };

/** The pay button pressed with no email. */
export const Required: Story = { args: { forced: 1 } };
