// The small views any screen may show: a one-message step, the generic error, not found, and the
// links home and to "My services".
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Frame, frameController } from '../test/story/Frame';
import { Centered, ErrorView, ManageLink, NotFound } from './Views';

export default { title: 'UI/Views' } satisfies Meta;
type Story = StoryObj;

const locale = (globals: Record<string, unknown>) => (typeof globals.locale === 'string' ? globals.locale : 'en');

/** Spec §2 and §8: the 404 view and its way home. */
export const NotFoundView: Story = {
  render: (_args, { globals }) => (
    <Frame locale={locale(globals)}>
      <NotFound />
    </Frame>
  ),
};

/** The generic error view of a failure the texts name (network). */
export const ErrorNetwork: Story = {
  render: (_args, { globals }) => {
    const controller = frameController();
    controller.fail({ name: 'network', message: 'Failed to fetch' });
    return (
      <Frame locale={locale(globals)} controller={controller}>
        <ErrorView />
      </Frame>
    );
  },
};

/** A busy step: the spinner and its message. */
export const CenteredBusy: Story = {
  render: (_args, { globals }) => (
    <Frame locale={locale(globals)}>
      <Centered icon="spinner" tone="busy" title="Creating your order…" />
    </Frame>
  ),
};

/** "Already a customer? Manage my services". */
export const ManageServices: Story = {
  render: (_args, { globals }) => (
    <Frame locale={locale(globals)}>
      <ManageLink />
    </Frame>
  ),
};
