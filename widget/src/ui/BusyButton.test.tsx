import { fireEvent } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderInFrame } from '../test/frame';
import { BusyButton } from './BusyButton';

describe('BusyButton', () => {
  it('runs its action when idle', async () => {
    const onClick = vi.fn();
    const { ui } = await renderInFrame(
      <BusyButton testId="b" onClick={onClick} busyLabel="Working…">
        Restart
      </BusyButton>,
    );
    const b = ui.getByTestId('b');
    expect(b.textContent).toBe('Restart');
    expect(b.getAttribute('aria-disabled')).toBeNull();
    expect(b.getAttribute('aria-busy')).toBeNull();
    fireEvent.click(b);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('says it is working while its action runs, and ignores clicks', async () => {
    const onClick = vi.fn();
    const { ui } = await renderInFrame(
      <BusyButton testId="b" busy onClick={onClick} busyLabel="Working…">
        Restart
      </BusyButton>,
    );
    const b = ui.getByTestId('b');
    expect(b.textContent).toBe('Working…');
    expect(b.getAttribute('aria-busy')).toBe('true');
    expect(b.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(b);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('stays focusable and silent while another action runs', async () => {
    const onClick = vi.fn();
    const { ui } = await renderInFrame(
      <BusyButton testId="b" blocked onClick={onClick} busyLabel="Working…">
        Recreate
      </BusyButton>,
    );
    const b = ui.getByTestId<HTMLButtonElement>('b');
    expect(b.textContent).toBe('Recreate');
    expect(b.disabled).toBe(false);
    expect(b.getAttribute('aria-disabled')).toBe('true');
    expect(b.getAttribute('aria-busy')).toBeNull();
    fireEvent.click(b);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('as a submit button leaves the submit to its form, busy or not', async () => {
    const submit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
    const { ui, rerender } = await renderInFrame(
      <form onSubmit={submit}>
        <BusyButton testId="b" type="submit" busyLabel="Working…">
          Save
        </BusyButton>
      </form>,
    );
    fireEvent.click(ui.getByTestId('b'));
    expect(submit).toHaveBeenCalledTimes(1);
    rerender(
      <form onSubmit={submit}>
        <BusyButton testId="b" type="submit" busy busyLabel="Working…">
          Save
        </BusyButton>
      </form>,
    );
    expect(ui.getByTestId('b').textContent).toBe('Working…');
    fireEvent.click(ui.getByTestId('b'));
    expect(submit).toHaveBeenCalledTimes(2);
  });
});
