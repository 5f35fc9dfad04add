// The plan cards of the catalog fixture as one radio group; clicks and arrow keys move the choice.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import type { Cycle } from '../api/schemas';
import { inFrame } from '../test/story/Frame';
import { plans } from '../test/story/data';
import { PlanGrid } from './PlanGrid';

/** The grid as the plan page holds it: the chosen plan in state. */
function Choosing({ selected, cycle, busy }: { selected: number | null; cycle: Cycle | null; busy: boolean }) {
  const [pid, setPid] = useState(selected);
  return <PlanGrid products={plans()} selectedPid={pid} cycle={cycle} onSelect={setPid} busy={busy} />;
}

const meta = {
  title: 'UI/PlanGrid',
  component: Choosing,
  render: inFrame(Choosing),
  args: { selected: 2, cycle: null, busy: false },
} satisfies Meta<typeof Choosing>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Standard selected, each card at its first cycle. */
export const Default: Story = {};

/** The yearly prices (the cycle chosen on the checkout form). */
export const Annually: Story = { args: { cycle: 'annually', selected: 3 } };

/** The free trial selected: "Free", no credit card. */
export const TrialSelected: Story = { args: { selected: 1 } };
