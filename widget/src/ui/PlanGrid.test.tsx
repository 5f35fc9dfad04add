import { fireEvent, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Cycle } from '../api/schemas';
import { renderInFrame } from '../test/frame';
import { plans } from '../test/story/data';
import { cardCycle, PlanGrid } from './PlanGrid';

function Choosing({ initial = 2, cycle = null, onContinue }: { initial?: number; cycle?: Cycle | null; onContinue?: () => void }) {
  const [pid, setPid] = useState<number | null>(initial);
  return <PlanGrid products={plans()} selectedPid={pid} cycle={cycle} onSelect={setPid} {...(onContinue ? { onContinue } : {})} />;
}

const checked = (el: HTMLElement) => el.getAttribute('aria-checked') === 'true';

describe('cardCycle', () => {
  it('shows the chosen cycle where the plan has it, else the plan’s first', () => {
    const [trial, standard] = plans();
    expect(cardCycle(standard!, 'annually')).toBe('annually');
    expect(cardCycle(standard!, null)).toBe('monthly');
    expect(cardCycle(trial!, 'annually')).toBe('onetime');
  });
});

describe('PlanGrid', () => {
  it('shows the catalog’s plans as a radio group with prices and badges', async () => {
    const { ui } = await renderInFrame(<Choosing />);
    const group = ui.getByRole('radiogroup', { name: 'Plans' });
    const cards = ui.getAllByRole('radio');
    expect(group.contains(cards[0]!)).toBe(true);
    expect(cards.map((c) => c.querySelector('h3')?.textContent)).toEqual(['Free Trial', 'Standard', 'Premium']);
    expect(cards.map(checked)).toEqual([false, true, false]);
    // Only the chosen card is in the tab order (a radio group is one stop).
    expect(cards.map((c) => c.tabIndex)).toEqual([-1, 0, -1]);
    expect(ui.getByRole('radio', { name: 'Standard' }).textContent).toContain('€12.99');
    expect(ui.getByRole('radio', { name: 'Standard' }).textContent).toContain('per month');
    expect(ui.getByRole('radio', { name: 'Premium' }).textContent).toContain('Best seller');
    const trial = ui.getByRole('radio', { name: 'Free Trial' });
    expect(trial.textContent).toContain('Free');
    expect(trial.textContent).toContain('No credit card required');
  });

  it('prices every card in the chosen cycle', async () => {
    const { ui } = await renderInFrame(<Choosing cycle="annually" />);
    expect(ui.getByRole('radio', { name: 'Standard' }).textContent).toContain('€99.99');
    expect(ui.getByRole('radio', { name: 'Premium' }).textContent).toContain('€119.99');
  });

  it('selects a plan on click', async () => {
    const { ui } = await renderInFrame(<Choosing />);
    fireEvent.click(ui.getByRole('radio', { name: 'Premium' }));
    await waitFor(() => expect(checked(ui.getByRole('radio', { name: 'Premium' }))).toBe(true));
    expect(checked(ui.getByRole('radio', { name: 'Standard' }))).toBe(false);
    expect(ui.getByRole('radio', { name: 'Premium' }).textContent).toContain('Selected');
  });

  it('moves the choice and the focus with the arrow keys, wrapping around', async () => {
    const { ui, shadow } = await renderInFrame(<Choosing />);
    fireEvent.keyDown(ui.getByRole('radio', { name: 'Standard' }), { key: 'ArrowRight' });
    await waitFor(() => expect(checked(ui.getByRole('radio', { name: 'Premium' }))).toBe(true));
    expect(shadow.activeElement).toBe(ui.getByRole('radio', { name: 'Premium' }));
    fireEvent.keyDown(ui.getByRole('radio', { name: 'Premium' }), { key: 'ArrowDown' });
    await waitFor(() => expect(checked(ui.getByRole('radio', { name: 'Free Trial' }))).toBe(true));
    fireEvent.keyDown(ui.getByRole('radio', { name: 'Free Trial' }), { key: 'ArrowLeft' });
    await waitFor(() => expect(checked(ui.getByRole('radio', { name: 'Premium' }))).toBe(true));
  });

  it('chooses with Space and goes on with Enter', async () => {
    const onContinue = vi.fn();
    const { ui } = await renderInFrame(<Choosing onContinue={onContinue} />);
    fireEvent.keyDown(ui.getByRole('radio', { name: 'Free Trial' }), { key: ' ' });
    await waitFor(() => expect(checked(ui.getByRole('radio', { name: 'Free Trial' }))).toBe(true));
    expect(onContinue).not.toHaveBeenCalled();
    fireEvent.keyDown(ui.getByRole('radio', { name: 'Premium' }), { key: 'Enter' });
    await waitFor(() => expect(checked(ui.getByRole('radio', { name: 'Premium' }))).toBe(true));
    expect(onContinue).toHaveBeenCalledTimes(1);
  });
});
