import { fireEvent, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timing } from '../core/timing';
import { renderInFrame } from '../test/frame';
import { Credential } from './Credential';

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('Credential', () => {
  it('shows its label and value, and copies the value', async () => {
    timing.copiedMs = 400;
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { ui } = await renderInFrame(<Credential label="Password" value="865762160918" testId="cred-password" />);
    expect(ui.getByText('Password').className).toBe('sc-cred-label');
    expect(ui.getByTestId('cred-password').textContent).toBe('865762160918');
    const copy = ui.getByRole('button', { name: 'Copy Password' });
    fireEvent.click(copy);
    await waitFor(() => expect(copy.textContent).toBe('Copied!'));
    expect(writeText).toHaveBeenCalledWith('865762160918');
  });
});
