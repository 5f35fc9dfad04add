import type { Meta, StoryObj } from '@storybook/react-vite';
import { CATALOG_YAML, catalogForm, catalogVersion, fault } from '../test/fakeApi';
import { renderConsoleStory, type ConsoleStoryProps } from '../test/story';

const meta = {
  title: 'Console/Catalog',
  render: renderConsoleStory,
  args: {
    path: 'catalog',
    routes: (f) =>
      f
        .on('GET', '/catalog', () => ({ version: catalogVersion(2, 'prices'), source: CATALOG_YAML, published: true, form: catalogForm() }))
        .on('GET', '/catalog/versions', () => ({ versions: [catalogVersion(2, 'prices'), catalogVersion(1, 'first')] })),
  },
} satisfies Meta<ConsoleStoryProps>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
/** The shop runs on the file it started with: nothing published here yet, no versions. */
export const NotPublished: Story = {
  args: {
    routes: (f) =>
      f
        .on('GET', '/catalog', () => ({
          version: catalogVersion(0, 'in force (imported)'),
          source: CATALOG_YAML,
          published: false,
          form: catalogForm(),
        }))
        .on('GET', '/catalog/versions', () => ({ versions: [] })),
  },
};
export const Viewer: Story = { args: { role: 'viewer' } };
export const Loading: Story = { args: { pending: '/catalog' } };
export const Failed: Story = {
  args: { routes: (f) => f.on('GET', '/catalog', fault).on('GET', '/catalog/versions', fault) },
};
