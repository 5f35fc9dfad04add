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
  renewalCardCharge: null,
  recurringAmount: { amount: 1299, currency: 'EUR' },
  username: 'user1',
  macAddress: '00:1A:79:AA:BB:CC',
  ...over,
});

describe('subscriptions', () => {
  it('says why a saved card did not pay the open renewal, beside that renewal', async () => {
    const fake = new FakeApi('owner').on('GET', '/services', () => ({
      services: [
        sub({
          serviceId: 'svc_1',
          renewsWithCard: true,
          renewalInvoiceId: 'inv_9',
          renewalCardCharge: 'declined',
          status: 'Overdue',
          overdueDays: 1,
        }),
        sub({ serviceId: 'svc_2', renewsWithCard: true, renewalInvoiceId: 'inv_8', renewalCardCharge: 'authentication_required' }),
        sub({ serviceId: 'svc_3', renewsWithCard: true, renewalInvoiceId: 'inv_7' }),
      ],
      nextCursor: '',
    }));
    await renderConsole(fake, '/checkout/admin/subscriptions');
    const rows = within(await screen.findByRole('table'))
      .getAllByRole('row')
      .slice(1);
    const due = (i: number) => within(rows[i]!).getAllByRole('cell')[4]!.textContent;
    expect(due(0)).toBe('2026-12-20Overdue: 1 dayRenewal invoice: inv_9Card declined');
    expect(due(1)).toBe('2026-12-20Renewal invoice: inv_8Card needs the buyer’s confirmation');
    expect(due(2)).toBe('2026-12-20Renewal invoice: inv_7');
  });

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
    // Eight columns that fit at 1280 px (e2e console-1280): the line with its username and MAC, the
    // plan with its cycle and connections, the due date with the open renewal, the actions last.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Line', 'Email', 'Status', 'Plan', 'Next due', 'Renews at', 'Auto-renew', 'Actions']);
    const cells = within(row).getAllByRole('cell');
    expect(cells[0]!.textContent).toBe('svc_1Username: ••••MAC: 00:1A:79:AA:BB:CC');
    expect(cells[3]!.textContent).toBe('Standard (2)Monthly · Connections: 1');
    expect(cells[4]!.textContent).toBe('2026-12-20Renewal invoice: inv_9');

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
    await screen.findByText('Overdue: 3 days');
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
    // Support may change a line billed from the next renewal, suspend and extend; not terminate.
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Change… (line svc_1)' }).disabled).toBe(false);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Suspend (line svc_1)' }).disabled).toBe(false);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Terminate (line svc_1)' }).disabled).toBe(true);
  });
});

const quote = (over: Record<string, unknown> = {}) => ({
  changeId: '',
  serviceId: 'svc_1',
  charge: 'now',
  preview: true,
  applied: false,
  from: { pid: 2, plan: 'Standard', billingCycle: 'monthly', maxConnections: 1, nextDueDate: '2026-12-20' },
  to: { pid: 2, plan: 'Standard', billingCycle: 'monthly', maxConnections: 3, nextDueDate: '2026-12-20' },
  amount: { amount: 400, currency: 'EUR' },
  daysLeft: 20,
  periodDays: 30,
  recurringAmount: { amount: 1299, currency: 'EUR' },
  newRecurringAmount: { amount: 1899, currency: 'EUR' },
  effect: 'The buyer is mailed a pay link.',
  orderId: '',
  invoiceId: '',
  sentTo: '',
  ...over,
});

describe('line dialogs', () => {
  it('the owner previews a change (its cost now and from the next renewal) before confirming it once, with an Idempotency-Key', async () => {
    const fake = new FakeApi('owner')
      .on('GET', '/services', () => ({ services: [sub()], nextCursor: '' }))
      .on('POST', '/services/:id/change', (c) => {
        const b = c.body as { preview?: boolean; maxConnections?: number };
        if (b.maxConnections === 9)
          return { status: 400, body: errorBody('invalid_change', 'maxConnections: plan 2 has 1 to 5 connections.') };
        return b.preview
          ? quote()
          : quote({ preview: false, changeId: 'chg_1', orderId: 'ord_1', invoiceId: 'inv_1', sentTo: 'buyer@example.com' });
      });
    await renderConsole(fake, '/checkout/admin/subscriptions');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change… (line svc_1)' }));
    const dialog = screen.getByRole('dialog', { name: 'Change line svc_1' });
    expect(within(dialog).getByText(/Now: Standard, monthly, 1 connection, due 2026-12-20/)).toBeTruthy();
    const conns = within(dialog).getByLabelText('Connections');
    await user.clear(conns);
    await user.type(conns, '9');
    await user.type(within(dialog).getByLabelText('Reason (for the audit log)'), 'asked by phone');
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('maxConnections: plan 2 has 1 to 5 connections.');
    await user.clear(conns);
    await user.type(conns, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await within(dialog).findByText('What this change does');
    expect(
      within(dialog).getByText(
        'buyer@example.com is mailed a pay link for €4.00; once paid the line becomes Standard, monthly, 3 connections, due 2026-12-20.',
      ),
    ).toBeTruthy();
    expect(within(dialog).getByText('€4.00 (20 of 30 days left in the period)')).toBeTruthy();
    expect(within(dialog).getByText('€12.99 now, €18.99 from the next renewal')).toBeTruthy();
    const previews = fake.calledWith('POST', '/services/svc_1/change');
    expect(previews.at(-1)!.body).toEqual({ charge: 'now', reason: 'asked by phone', maxConnections: 3, preview: true });

    // Editing after the preview asks for a new one before anything can be confirmed.
    await user.click(within(dialog).getByLabelText(/^From the next renewal/));
    expect(within(dialog).getByText('The form changed since the preview: preview again.')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: /^Confirm/ })).toBeNull();
    // Back to what was previewed: the preview holds again.
    await user.click(within(dialog).getByLabelText(/^Now: mail the buyer/));
    await user.click(await within(dialog).findByRole('button', { name: 'Confirm: mail a pay link for €4.00' }));
    await screen.findByText('Pay link for the change of svc_1 mailed to buyer@example.com.');
    expect(screen.queryByRole('dialog')).toBeNull();
    const made = fake.calledWith('POST', '/services/svc_1/change').filter((c) => !(c.body as { preview?: boolean }).preview);
    expect(made).toHaveLength(1);
    expect(made[0]!.body).toEqual({ charge: 'now', reason: 'asked by phone', maxConnections: 3 });
    expect(made[0]!.headers['idempotency-key']).toMatch(/.{8,}/);
    expect(made[0]!.headers['x-csrf-token']).toBe('csrf-123');
  });

  it('support may only bill a change from the next renewal', async () => {
    const fake = new FakeApi('support').on('GET', '/services', () => ({ services: [sub()], nextCursor: '' }));
    await renderConsole(fake, '/checkout/admin/subscriptions');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change… (line svc_1)' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByLabelText<HTMLInputElement>(/^From the next renewal/).checked).toBe(true);
    expect(within(dialog).getByLabelText<HTMLInputElement>(/^Now: mail the buyer/).disabled).toBe(true);
    expect(within(dialog).getByLabelText<HTMLInputElement>(/^Free:/).disabled).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('suspend, extend and terminate ask in a dialog naming the effect; Keep does nothing', async () => {
    const line = {
      serviceId: 'svc_1',
      orderId: 'ord_1',
      pid: 2,
      name: 'Standard',
      status: 'Suspended',
      username: 'u',
      password: 'p',
      expiresAt: '',
      nextDueDate: '2026-12-27',
    };
    const fake = new FakeApi('owner')
      .on('GET', '/services', () => ({ services: [sub()], nextCursor: '' }))
      .on('POST', '/services/:id/suspend', () => line)
      .on('POST', '/services/:id/extend', () => line)
      .on('POST', '/services/:id/terminate', () => ({ ...line, status: 'Terminated' }));
    await renderConsole(fake, '/checkout/admin/subscriptions');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Suspend (line svc_1)' }));
    let dialog = screen.getByRole('alertdialog', { name: 'Suspend line svc_1?' });
    expect(within(dialog).getByText(/switched off on the panel at once: buyer@example.com cannot watch/)).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Confirm: suspend' }));
    await user.click(within(dialog).getByRole('button', { name: 'Keep' }));
    expect(fake.calledWith('POST', '/services/svc_1/suspend')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Suspend (line svc_1)' }));
    await user.click(screen.getByRole('button', { name: 'Confirm: suspend' }));
    await screen.findByText('Line svc_1 suspended.');
    expect(fake.calledWith('POST', '/services/svc_1/suspend')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Extend (line svc_1)' }));
    dialog = screen.getByRole('alertdialog', { name: 'Extend line svc_1?' });
    expect(within(dialog).getByText(/next due date \(2026-12-20\) move on by the days below, free of charge/)).toBeTruthy();
    const days = within(dialog).getByLabelText('Days');
    await user.clear(days);
    await user.type(days, '10');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm: 10 days more, free' }));
    await screen.findByText('Line svc_1 extended by 10 days.');
    expect(fake.calledWith('POST', '/services/svc_1/extend')[0]!.body).toEqual({ days: 10 });

    await user.click(screen.getByRole('button', { name: 'Terminate (line svc_1)' }));
    dialog = screen.getByRole('alertdialog', { name: 'Terminate line svc_1?' });
    expect(within(dialog).getByText(/deleted from the panel for good.*cannot be undone/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Terminate for good' }));
    await screen.findByText('Line svc_1 terminated.');
  });
});

describe('settings', () => {
  it('lists every setting with its source, secrets as the server masked them', async () => {
    const fake = new FakeApi('owner').on('GET', '/settings', () => ({
      settings: [
        {
          name: 'addr',
          env: 'STREAMCART_ADDR',
          flag: '--addr',
          value: '127.0.0.1:8080',
          source: 'default',
          secret: false,
          description: 'listen address',
        },
        {
          name: 'secret-key',
          env: 'STREAMCART_SECRET_KEY',
          flag: '',
          value: '••••',
          source: 'environment',
          secret: true,
          description: 'key',
        },
        {
          name: 'job-poll',
          env: 'STREAMCART_JOB_POLL',
          flag: '--job-poll',
          value: '2s',
          source: 'flag',
          secret: false,
          description: 'poll',
        },
      ],
    }));
    await renderConsole(fake, '/checkout/admin/settings');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Settings');
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[2]!).getByText('••••')).toBeTruthy();
    expect(within(rows[2]!).getByText('(secret)')).toBeTruthy();
    expect(within(rows[2]!).getByText('environment')).toBeTruthy();
    expect(within(rows[3]!).getByText('flag')).toBeTruthy();
  });

  it('says a support operator may not read them', async () => {
    const fake = new FakeApi('support').on('GET', '/settings', () => ({ status: 403, body: errorBody('forbidden') }));
    await renderConsole(fake, '/checkout/admin/settings');
    expect((await screen.findByTestId('forbidden')).textContent).toBe('Your role does not allow this (403 forbidden).');
  });

  it('when WHMCS bills the lines, offers no change or extend (WHMCS owns prices and due dates) but keeps suspend and terminate', async () => {
    const fake = new FakeApi('owner').on('GET', '/services', () => ({ services: [sub()], nextCursor: '' }));
    fake.billing = 'whmcs';
    await renderConsole(fake, '/checkout/admin/subscriptions');
    const row = within(await screen.findByRole('table')).getAllByRole('row')[1]!;
    expect(within(row).getByRole('button', { name: /^Suspend/ })).toBeTruthy();
    expect(within(row).getByRole('button', { name: /^Terminate/ })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: /^Extend/ })).toBeNull();
    expect(within(row).queryByRole('button', { name: /^Change/ })).toBeNull();
  });

  it('says so, as a status, when WHMCS could not be read for the due dates (dueDatesUnavailable), and only then', async () => {
    for (const unavailable of [true, undefined]) {
      const fake = new FakeApi('viewer').on('GET', '/services', () => ({
        services: [sub({ nextDueDate: '', overdueDays: 0 })],
        nextCursor: '',
        ...(unavailable ? { dueDatesUnavailable: true } : {}),
      }));
      fake.billing = 'whmcs';
      const { unmount } = await renderConsole(fake, '/checkout/admin/subscriptions');
      await screen.findByRole('table');
      const notice = screen.queryAllByRole('status').find((s) => s.textContent?.startsWith('WHMCS could not be read just now'));
      if (unavailable) {
        expect(notice?.textContent).toBe(
          'WHMCS could not be read just now: lines billed in WHMCS show no next due date and no overdue days on this page. Reload the page to try again.',
        );
      } else {
        expect(notice).toBeUndefined();
      }
      unmount();
    }
  });
});
