// What an action says afterwards: a confirmation (StatusNote) or a problem (Alert).
import type { Meta, StoryObj } from '@storybook/react-vite';
import { inFrame } from '../test/story/Frame';
import { Alert, StatusNote } from './Notice';

const meta = {
  title: 'UI/Notice',
  component: StatusNote,
  render: inFrame(StatusNote),
  args: { message: 'The service was restarted.', testId: 'service-message' },
} satisfies Meta<typeof StatusNote>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Confirmation: Story = {};

/** An action that failed: an alert with its icon. */
export const Failure: Story = {
  render: inFrame(() => <Alert testId="service-error">This action is not available for this service right now.</Alert>),
};

/** A standing warning (an overdue service): part of the page, not announced. */
export const Warning: Story = {
  render: inFrame(() => (
    <Alert testId="renewal-warning" tone="warn" quiet>
      Your payment is overdue. Renew now to keep watching without interruption.
    </Alert>
  )),
};
