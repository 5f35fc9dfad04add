import type { Meta, StoryObj } from '@storybook/react-vite';
import { fault, job } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const jobs = [job(), job({ id: 8, kind: 'mail', ref: 'mail:9', state: 'queued', attempts: 2, lastError: 'smtp: 451 try later' })];

const meta = {
  title: 'Console/Jobs',
  render: renderConsoleStory,
  args: { path: 'jobs', routes: (f) => f.on('GET', '/jobs', () => ({ jobs })) },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Empty: Story = { args: { routes: (f) => f.on('GET', '/jobs', () => ({ jobs: [] })) } };
export const Loading: Story = { args: { pending: '/jobs' } };
export const Failed: Story = { args: { routes: (f) => f.on('GET', '/jobs', fault) } };
