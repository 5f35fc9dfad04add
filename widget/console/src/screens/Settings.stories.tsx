import type { Meta, StoryObj } from '@storybook/react-vite';
import { errorBody } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const setting = (name: string, env: string, flag: string, value: string, source: string, secret = false) => ({
  name,
  env,
  flag,
  value,
  source,
  secret,
  description: `${name} of the shop`,
});

const meta = {
  title: 'Console/Settings',
  render: renderConsoleStory,
  args: {
    path: 'settings',
    routes: (f) =>
      f.on('GET', '/settings', () => ({
        settings: [
          setting('addr', 'STREAMCART_ADDR', '--addr', '127.0.0.1:8080', 'flag'),
          setting('public-url', 'STREAMCART_PUBLIC_URL', '', 'https://shop.example', 'environment'),
          setting('secret-key', 'STREAMCART_SECRET_KEY', '', '••••', 'environment', true),
        ],
      })),
  },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Loading: Story = { args: { pending: '/settings' } };
/** Settings are the owner's: another role is told so. */
export const Forbidden: Story = {
  args: { role: 'support', routes: (f) => f.on('GET', '/settings', () => ({ status: 403, body: errorBody('forbidden') })) },
};
