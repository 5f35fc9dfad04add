import type { Meta, StoryObj } from '@storybook/react-vite';
import { auditEntry, fault } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const entries = [
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
    ip: '198.51.100.4',
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
