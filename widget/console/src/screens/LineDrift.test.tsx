import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi } from '../test/fakeApi';
import { renderConsole } from '../test/render';

const drift = (over: Record<string, unknown> = {}) => ({
  id: 9,
  at: '2026-11-27T10:15:00Z',
  runId: 'run_1',
  serviceId: 'svc_1',
  username: 'sc12345678',
  kind: 'missing',
  want: 'line sc12345678',
  found: 'none',
  action: 'recreated',
  error: '',
  ...over,
});

describe('line drift', () => {
  it('lists each drift with what was paid, what was found and what was done, from the navigation, paged with the cursor', async () => {
    const fake = new FakeApi('viewer')
      .on('GET', '/jobs', () => ({ jobs: [] }))
      .on('GET', '/line-drift', (c) =>
        c.query.get('cursor') === '7'
          ? {
              drifts: [
                drift({
                  id: 3,
                  serviceId: '',
                  username: 'stranger1',
                  kind: 'unexplained',
                  want: 'none',
                  found: 'line stranger1',
                  action: 'listed',
                }),
              ],
              nextCursor: '',
            }
          : {
              drifts: [
                drift(),
                drift({ id: 8, kind: 'connections', want: '2', found: '5', action: 'failed', error: 'panel unavailable' }),
                drift({
                  id: 7,
                  serviceId: 'svc_2',
                  username: 'sc87654321',
                  kind: 'expiry',
                  want: '2026-12-20 10:00:00',
                  found: '2026-12-01 10:00:00',
                  action: 'expiry-set',
                }),
              ],
              nextCursor: '7',
            },
      );
    await renderConsole(fake, '/checkout/admin/jobs');
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Line drift' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Line drift' })).toBeTruthy();
    expect(location.pathname).toBe('/checkout/admin/line-drift');
    expect(screen.getByRole('link', { name: 'Line drift' }).getAttribute('aria-current')).toBe('page');

    const table = await screen.findByRole('table');
    const [head, missing, failed, expiry] = within(table).getAllByRole('row');
    expect(
      within(head!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['When', 'Line', 'Customer', 'Drift', 'Paid', 'Found on the panel', 'Done']);
    expect(
      within(missing!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      '2026-11-27 10:15 UTC',
      'sc12345678svc_1',
      'Look up',
      'Line missing on the panel',
      'line sc12345678',
      'none',
      'Recreated with the same credentials',
    ]);
    expect(within(missing!).getByRole('link', { name: 'The customer of line svc_1, in Subscriptions' }).getAttribute('href')).toBe(
      '/checkout/admin/subscriptions?q=svc_1',
    );
    expect(within(failed!).getByText('Repair failed: panel unavailable. The next run tries again.')).toBeTruthy();
    expect(within(failed!).getByText('Other connection limit')).toBeTruthy();
    expect(
      within(expiry!)
        .getAllByRole('cell')
        .slice(3)
        .map((c) => c.textContent),
    ).toEqual(['Other expiry', '2026-12-20 10:00:00', '2026-12-01 10:00:00', 'Expiry set']);
    expect(fake.calledWith('GET', '/line-drift')[0]!.query.get('cursor')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    const row = (await screen.findByText('Panel line without an order')).closest('tr')!;
    expect(within(row).getByText('Not explained by any order — kept')).toBeTruthy();
    expect(within(row).getByText('no order')).toBeTruthy();
    expect(within(row).queryByRole('link')).toBeNull();
    expect(fake.calledWith('GET', '/line-drift').at(-1)!.query.get('cursor')).toBe('7');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Next page' }).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await screen.findByText('Line missing on the panel');
    await waitFor(() => expect(fake.calledWith('GET', '/line-drift').at(-1)!.query.get('cursor')).toBeNull());
  });

  it('says so when the reconciliation has recorded nothing', async () => {
    const fake = new FakeApi('owner').on('GET', '/line-drift', () => ({ drifts: [], nextCursor: '' }));
    await renderConsole(fake, '/checkout/admin/line-drift');
    expect((await screen.findByTestId('drift-empty')).textContent).toBe(
      'No line drift recorded: every line matched the panel whenever the reconciliation looked.',
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull();
  });
});
