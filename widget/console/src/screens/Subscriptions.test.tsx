import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi, errorBody } from '../test/fakeApi';
import { renderConsole } from '../test/render';

const sub = (over: Record<string, unknown> = {}) => ({
  serviceId: 'svc_1',
  customer: { id: 'usr_1', email: 'buyer@example.com' },
  pid: 2,
  plan: 'Standard',
  billingCycle: 'monthly',
  maxConnections: 1,
  status: 'Active',
  nextDueDate: '2026-12-20',
  overdueDays: 0,
  autoRenew: true,
  renewsWithCard: false,
  renewalInvoiceId: null,
  recurringAmount: { amount: 1299, currency: 'EUR' },
  username: 'user1',
  macAddress: '00:1A:79:AA:BB:CC',
  ...over,
});

describe('subscriptions', () => {
  it('sends the filters, keeps them in the URL and in the CSV link, pages with the cursor; a viewer may not act', async () => {
    const fake = new FakeApi('viewer').on('GET', '/services', (c) =>
      c.query.get('cursor') === 'c2'
        ? {
            services: [sub({ serviceId: 'svc_2', autoRenew: false, recurringAmount: null, status: 'Overdue', overdueDays: 3 })],
            nextCursor: '',
          }
        : { services: [sub({ username: '••••', renewsWithCard: true, renewalInvoiceId: 'inv_9' })], nextCursor: 'c2' },
    );
    await renderConsole(fake, '/checkout/admin/subscriptions');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Subscriptions');
    const table = await screen.findByRole('table');
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('buyer@example.com').getAttribute('href')).toBe('/checkout/admin/customers/usr_1');
    expect(within(row).getByText('€12.99')).toBeTruthy();
    expect(within(row).getByText('on, card')).toBeTruthy();
    expect(within(row).getByText('••••')).toBeTruthy();
    expect(within(row).getByRole<HTMLButtonElement>('button', { name: 'Cancel auto-renew' }).disabled).toBe(true);
    expect(within(row).getByRole<HTMLButtonElement>('button', { name: 'Send renewal link' }).disabled).toBe(true);
    expect(screen.getByText('Your role may look here but not change anything.')).toBeTruthy();

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Status'), 'Overdue');
    await user.type(screen.getByLabelText('Search'), ' 00-1a-79-aa-bb-cc ');
    await user.selectOptions(screen.getByLabelText('Due within'), '14d');
    await user.selectOptions(screen.getByLabelText('Auto-renew'), 'false');
    await user.type(screen.getByLabelText('Plan (product id)'), '2');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(location.search).toBe('?status=Overdue&q=00-1a-79-aa-bb-cc&dueWithin=14d&autoRenew=false&pid=2'));
    await waitFor(() => expect(fake.calledWith('GET', '/services').at(-1)!.query.get('dueWithin')).toBe('14d'));
    const q = fake.calledWith('GET', '/services').at(-1)!.query;
    expect([q.get('status'), q.get('q'), q.get('autoRenew'), q.get('pid')]).toEqual(['Overdue', '00-1a-79-aa-bb-cc', 'false', '2']);
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      '/checkout/api/admin/services.csv?status=Overdue&q=00-1a-79-aa-bb-cc&dueWithin=14d&autoRenew=false&pid=2',
    );

    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('3 days');
    expect(fake.calledWith('GET', '/services').at(-1)!.query.get('cursor')).toBe('c2');
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(fake.calledWith('GET', '/services').at(-1)!.query.get('cursor')).toBeNull());
  });

  it('support cancels auto-renew and sends the renewal link after a confirmation naming the effect; a 409 says why', async () => {
    let renewing = true;
    let open = true;
    const fake = new FakeApi('support')
      .on('GET', '/services', () => ({
        services: [sub({ autoRenew: renewing, renewalInvoiceId: 'inv_9' })],
        nextCursor: '',
      }))
      .on('POST', '/services/:id/cancel', (_c, [id]) => {
        renewing = false;
        return sub({ serviceId: id, autoRenew: false });
      })
      .on('POST', '/services/:id/resume', (_c, [id]) => {
        renewing = true;
        return sub({ serviceId: id });
      })
      .on('POST', '/services/:id/renewal-link', () =>
        open ? { sentTo: 'buyer@example.com', invoiceId: 'inv_9' } : { status: 409, body: errorBody('no_open_renewal') },
      );
    await renderConsole(fake, '/checkout/admin/subscriptions');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel auto-renew' }));
    expect(fake.calledWith('POST', '/services/svc_1/cancel')).toHaveLength(0);
    const confirm = screen.getByRole('button', { name: 'Confirm: no more renewals, the line ends on 2026-12-20' });
    expect(document.activeElement).toBe(confirm);
    await user.click(confirm);
    expect((await screen.findByText('Auto-renew of svc_1 cancelled: it ends at its due date.')).getAttribute('role')).toBe('status');
    expect(fake.calledWith('POST', '/services/svc_1/cancel')).toHaveLength(1);
    expect(fake.calledWith('POST', '/services/svc_1/cancel')[0]!.headers['x-csrf-token']).toBe('csrf-123');

    // The list reloaded: the line offers to resume now.
    await user.click(await screen.findByRole('button', { name: 'Resume auto-renew' }));
    await user.click(screen.getByRole('button', { name: 'Confirm: renew again from 2026-12-20' }));
    await screen.findByText('Auto-renew of svc_1 resumed.');

    await user.click(screen.getByRole('button', { name: 'Send renewal link' }));
    await user.click(screen.getByRole('button', { name: 'Confirm: mail the pay link to buyer@example.com' }));
    await screen.findByText('Pay link of invoice inv_9 mailed to buyer@example.com.');

    open = false;
    await user.click(screen.getByRole('button', { name: 'Send renewal link' }));
    await user.click(screen.getByRole('button', { name: 'Confirm: mail the pay link to buyer@example.com' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This line has no open renewal invoice: there is no pay link to send.');
    expect(
      screen.getByRole('link', { name: 'Suspend, extend, terminate… (line svc_1, on its customer’s page)' }).getAttribute('href'),
    ).toBe('/checkout/admin/customers/usr_1');
  });
});
