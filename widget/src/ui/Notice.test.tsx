import { describe, expect, it } from 'vitest';
import { renderInFrame } from '../test/frame';
import { Alert, StatusNote } from './Notice';

describe('StatusNote', () => {
  it('is a live region that is there before its message', async () => {
    const { ui, rerender } = await renderInFrame(<StatusNote message={null} testId="note" />);
    const region = ui.getByRole('status');
    expect(region.textContent).toBe('');
    expect(ui.queryByTestId('note')).toBeNull();
    rerender(<StatusNote message="The service was restarted." testId="note" />);
    expect(ui.getByRole('status')).toBe(region);
    expect(ui.getByTestId('note').textContent).toBe('The service was restarted.');
    expect(ui.getByTestId('note').className).toBe('sc-note');
  });
});

describe('Alert', () => {
  it('announces a failure with its icon', async () => {
    const { ui } = await renderInFrame(<Alert testId="err">We could not reach the server.</Alert>);
    const a = ui.getByRole('alert');
    expect(a.dataset.testid).toBe('err');
    expect(a.className).toBe('sc-alert');
    expect(a.textContent).toBe('We could not reach the server.');
    expect(a.querySelector('svg')).toBeTruthy();
  });

  it('a quiet warning is part of the page, not an alert', async () => {
    const { ui } = await renderInFrame(
      <Alert testId="warn" tone="warn" quiet>
        Your payment is overdue.
      </Alert>,
    );
    expect(ui.queryByRole('alert')).toBeNull();
    expect(ui.getByTestId('warn').className).toBe('sc-alert sc-alert-warn');
  });
});
