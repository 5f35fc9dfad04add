// Renewals (issue 13): the open renewal in "My services", a suspended line, early renewal, auto-renew
// cancelled, and the /renew page of a reminder email's pay link (?sc_invoice=…&sc_t=…), which
// needs no sign-in.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { click, find, widget } from '../../test/story/play';

export default {
  title: 'Account/Renewals',
  parameters: { checkout: { url: { sc_view: 'services' }, session: 'proven' } },
} satisfies Meta;
type Story = StoryObj;

/** A renewal invoice is open: its amount, due date and "Pay now". */
export const RenewalBanner: Story = {
  parameters: { checkout: { api: { 'services.list': '200.renewal' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'renewal-banner');
  },
};

/** Past due and grace: the line is suspended until paid; the other one is overdue. */
export const SuspendedService: Story = {
  parameters: { checkout: { api: { 'services.list': '200.suspended' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), '[data-testid="service-status"][data-status="Suspended"]');
  },
};

/** The saved card was declined on the due day: the line is overdue, the card's failure said, and "Pay now". */
export const CardDeclined: Story = {
  parameters: { checkout: { api: { 'services.list': '200.card-declined' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'card-charge-failed');
  },
};

/** "Renew now": the plan's cycles and the payment method. */
export const RenewEarly: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await click(root, 'service-renew');
    await find(root, 'renew-cycle', (el) => (el as HTMLSelectElement).options.length > 1);
  },
};

/** The renewal was refused (409 conflict). */
export const RenewRefused: Story = {
  parameters: { checkout: { api: { 'services.renew': '409' } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await click(root, 'service-renew');
    await click(root, 'renew-submit');
    await find(root, 'renewal-error');
  },
};

/** "Cancel auto-renew": the question. */
export const CancelAutoRenewQuestion: Story = {
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await click(root, 'service-cancel-renew');
    await find(root, 'cancel-renew-confirm');
  },
};

/** Auto-renew cancelled: the service ends on its due date unless resumed. */
export const AutoRenewCancelled: Story = {
  parameters: { checkout: { api: { 'services.list': '200.cancelled-renewal' } } },
  play: async ({ canvasElement }) => {
    const root = await widget(canvasElement);
    await find(root, 'auto-renew-off');
    await find(root, 'service-resume');
  },
};

const payLink = { sc_invoice: 'inv_storybookr1', sc_t: 'pl_storybook.sig' };

/** /renew: the invoice of a pay link, without signing in. */
export const RenewPageUnpaid: Story = {
  parameters: { checkout: { url: payLink, session: null } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'invoice-pay');
  },
};

/** /renew for a suspended line (paying re-enables it). */
export const RenewPageSuspended: Story = {
  parameters: { checkout: { url: payLink, session: null, api: { 'invoices.get': '200.suspended' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'invoice-pay');
  },
};

/** /renew back from the payment page: waiting for the payment, then paid. */
export const RenewPagePaid: Story = {
  parameters: { checkout: { url: { ...payLink, sc_return: '1' }, session: null, api: { 'invoices.get': ['200', '200.paid'] } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'renew-paid');
  },
};

/** /renew with a wrong, stale or closed link (404). */
export const RenewPageInvalidLink: Story = {
  parameters: { checkout: { url: payLink, session: null, api: { 'invoices.get': '404' } } },
  play: async ({ canvasElement }) => {
    await find(await widget(canvasElement), 'renew-invalid');
  },
};
