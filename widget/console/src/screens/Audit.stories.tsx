import type { Meta, StoryObj } from '@storybook/react-vite';
import { auditEntry, fault } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const entries = [
  // A console sign-in: its address in ip (the Address column), no detail.
  auditEntry({ id: 8, action: 'console-signin', target: 'operator:me@example.com', detail: '', ip: '203.0.113.7', args: [] }),
  auditEntry(),
  auditEntry({
    id: 6,
    operator: '',
    action: 'console-signin-failed',
    target: 'operator:owner@example.com',
    result: 'failed',
    detail: 'bad_password',
    args: ['signin-failed', 'bad_password'],
  }),
  auditEntry({
    id: 5,
    action: 'order-approve',
    target: 'order:ord_7',
    detail: 'provisioned unpaid',
    ip: '', // only console sign-ins keep an address
    args: ['provisioned-unpaid'],
  }),
  auditEntry({
    id: 4,
    action: 'catalog-save',
    target: 'catalog',
    detail: 'version 3: new prices',
    ip: '',
    args: ['version', '3', 'new prices'],
  }),
  auditEntry({ id: 3, action: 'customer-signout', target: 'usr_1', detail: '2 session(s)', ip: '', args: ['sessions', '2'] }),
  auditEntry({
    id: 2,
    action: 'order-refund',
    target: 'ord_2',
    detail: 'replayed (nothing more refunded): 5.00 EUR by hand: goodwill',
    ip: '',
    args: ['refund', '500', 'EUR', 'hand', 'goodwill', 'replayed'],
  }),
  auditEntry({ id: 1, action: 'mac', target: 'svc_1', detail: 'aa:bb:cc:dd:ee:ff', ip: '', args: [] }),
  // Every action whose detail the server words, sent with its parts (issue 26: no English left).
  auditEntry({
    id: 20,
    action: 'line-change',
    target: 'svc_1',
    detail:
      'now: The buyer is mailed a pay link for 4.50 EUR (15 days left in the period); once paid the line changes (plan Basic → Premium, connections 1 → 2) and each period costs 14.99 EUR instead of 9.99 EUR from the next renewal.; upgrade asked by mail',
    ip: '',
    args: [
      'line-change',
      'now',
      'upgrade asked by mail',
      'Basic',
      'Premium',
      'monthly',
      'monthly',
      '1',
      '2',
      '2026-12-10',
      '2026-12-10',
      '450',
      '999',
      '1499',
      'EUR',
      '15',
    ],
  }),
  auditEntry({
    id: 19,
    operator: '',
    customerId: 'usr_1',
    action: 'line-change',
    target: 'svc_1',
    detail: 'order ord_9 paid: change chg_1 applied',
    ip: '',
    args: ['change-applied', 'ord_9', 'chg_1'],
  }),
  auditEntry({
    id: 18,
    action: 'payment-refund',
    target: 'pay_1',
    detail: 'ord_3: 2.00 EUR (short) by hand, reference bank 42',
    ip: '',
    args: ['payment-refund', 'ord_3', '200', 'EUR', 'short', 'hand', 'bank 42'],
  }),
  auditEntry({
    id: 17,
    action: 'payment-accept',
    target: 'pay_2',
    detail: 'ord_4: 10.00 USD for 9.99 EUR (currency)',
    ip: '',
    args: ['payment-accept', 'ord_4', '1000', 'USD', '999', 'EUR', 'currency'],
  }),
  auditEntry({
    id: 16,
    action: 'order-reject',
    target: 'ord_5',
    detail: 'stolen card (refunded 9.99 EUR)',
    ip: '',
    args: ['reject-refund', 'stolen card', 'refunded', '999', 'EUR'],
  }),
  auditEntry({
    id: 15,
    operator: '',
    customerId: 'usr_1',
    action: 'upsell',
    target: 'svc_1',
    detail: 'order ord_6: +1, max connections 3',
    ip: '',
    args: ['upsell', 'ord_6', '1', '3'],
  }),
  auditEntry({
    id: 14,
    operator: '',
    customerId: 'usr_2',
    action: 'reseller-credit',
    target: 'svc_2',
    detail: 'order ord_8: +100 credits, balance 250',
    ip: '',
    args: ['reseller-credit', 'ord_8', '100', '250'],
  }),
  auditEntry({
    id: 13,
    operator: 'line-reconcile',
    action: 'line-drift-disabled',
    target: 'svc_3',
    detail: 'panel had disabled, shop has enabled: enabled',
    ip: '',
    args: ['line-drift', 'disabled', 'enabled', 'enabled'],
  }),
  auditEntry({ id: 12, action: 'job-retry', target: 'job:41', detail: 'provision ord_1', ip: '', args: ['job', 'provision', 'ord_1'] }),
  auditEntry({ id: 11, action: 'job-cancel', target: 'job:42', detail: 'mail 17', ip: '', args: ['job', 'mail', '17'] }),
  auditEntry({ id: 10, operator: '', customerId: 'usr_1', action: 'cancel-auto-renew', target: 'svc_1', detail: '', ip: '', args: [] }),
  auditEntry({ id: 9, operator: '', customerId: 'usr_1', action: 'restart', target: 'svc_1', detail: '', ip: '', args: [] }),
];

const meta = {
  title: 'Console/Audit',
  render: renderConsoleStory,
  args: { path: 'audit', routes: (f) => f.on('GET', '/audit', () => ({ entries, nextCursor: '' })) },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = {
  args: { path: 'audit?ip=192.0.2.1', routes: (f) => f.on('GET', '/audit', () => ({ entries: [], nextCursor: '' })) },
};
export const Loading: Story = { args: { pending: '/audit' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/audit', fault) } };
