import type { Meta, StoryObj } from '@storybook/react-vite';
import { fault, promotion } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const promotions = [
  promotion(),
  promotion({
    code: 'SUMMER2020',
    value: '20',
    appliesTo: [2, 3],
    products: ['Standard', 'Premium'],
    startDate: '2020-06-01',
    expirationDate: '2020-08-31',
    status: 'expired',
    uses: 41,
  }),
  promotion({
    code: 'LOYAL',
    type: 'Fixed Amount',
    value: '2.00',
    amount: { amount: 200, currency: 'EUR' },
    appliesTo: [],
    products: [],
    recurring: true,
    disabled: true,
    status: 'disabled',
    uses: 0,
  }),
];

const meta = {
  title: 'Console/Promotions',
  render: renderConsoleStory,
  args: { path: 'promotions', routes: (f) => f.on('GET', '/promotions', () => ({ promotions })) },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = { args: { routes: (f) => f.on('GET', '/promotions', () => ({ promotions: [] })) } };
export const Loading: Story = { args: { pending: '/promotions' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/promotions', fault) } };
