import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { switchLocale } from '../messages';
import { DateField, isoDay } from './DateField';

function Harness({ initial, onChange }: { initial: string; onChange: (v: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <DateField
      label="Due"
      value={value}
      onChange={(v) => {
        setValue(v);
        onChange(v);
      }}
    />
  );
}

const segmentTypes = () =>
  [...within(screen.getByRole('group', { name: 'Due' })).getAllByRole('spinbutton')].map((s) => s.getAttribute('data-type'));

describe('DateField', () => {
  it('lays a German date out as dd.mm.yyyy and hands the API an ISO day', async () => {
    await switchLocale('de-de');
    const changed = vi.fn();
    render(<Harness initial="2026-12-01" onChange={changed} />);
    expect(segmentTypes()).toEqual(['day', 'month', 'year']);
    expect(screen.getByRole('group', { name: 'Due' }).textContent?.replace(/[\u2066-\u2069]/g, '')).toBe('01.12.2026');
    const user = userEvent.setup();
    await user.click(within(screen.getByRole('group', { name: 'Due' })).getAllByRole('spinbutton')[0]!);
    await user.keyboard('24122026');
    expect(changed).toHaveBeenLastCalledWith('2026-12-24');
  });

  it('lays English (US too) out as YYYY-MM-DD, as the console shows days, never mm/dd/yyyy', async () => {
    await switchLocale('en-us');
    render(<Harness initial="2026-12-01" onChange={() => undefined} />);
    expect(segmentTypes()).toEqual(['year', 'month', 'day']);
    expect(screen.getByRole('group', { name: 'Due' }).textContent?.replace(/[\u2066-\u2069]/g, '')).toBe('2026-12-01');
  });

  it('reads "" and anything that is not a day as no date', () => {
    expect(isoDay('')).toBeNull();
    expect(isoDay('2026-13-40')).toBeNull();
    expect(isoDay('01.12.2026')).toBeNull();
    expect(isoDay('2026-12-01')?.toString()).toBe('2026-12-01');
  });
});
