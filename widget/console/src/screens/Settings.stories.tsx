import type { Meta, StoryObj } from '@storybook/react-vite';
import { ConsoleStory, type ConsoleStoryProps } from '../test/story';

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
  render: (args) => <ConsoleStory {...args} />,
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
