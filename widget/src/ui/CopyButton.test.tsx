import { act, fireEvent, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timing } from '../core/timing';
import { renderInFrame } from '../test/frame';
import { CopyButton } from './CopyButton';

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
  Reflect.deleteProperty(document, 'execCommand');
});

describe('CopyButton', () => {
  it('copies its value, says "Copied!" and then "Copy" again', async () => {
    // Long enough to see "Copied!" between two polls of waitFor (the setup shortens it to 30 ms).
    timing.copiedMs = 400;
    const writeText = vi.fn(() => Promise.resolve());
    stubClipboard(writeText);
    const { ui, css } = await renderInFrame(<CopyButton value="sc91692420" label="Username" />);
    const button = ui.getByRole('button', { name: 'Copy Username' });
    // Its own sheet (components.css) joins the widget's in the shadow root.
    await waitFor(() => expect(css()).toContain('.sc-btn-copy'));
    expect(css()).toContain('.sc-root');
    expect(button.textContent).toBe('Copy');
    fireEvent.click(button);
    await waitFor(() => expect(button.textContent).toBe('Copied!'));
    expect(writeText).toHaveBeenCalledWith('sc91692420');
    // The label announces the copy to screen readers.
    expect(button.getAttribute('aria-label')).toBe('Copied!');
    expect(button.classList.contains('is-copied')).toBe(true);
    await waitFor(() => expect(button.textContent).toBe('Copy'));
    expect(button.getAttribute('aria-label')).toBe('Copy Username');
  });

  it('falls back to a selection copy inside the shadow root when the clipboard refuses', async () => {
    timing.copiedMs = 400;
    stubClipboard(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    const copied: string[] = [];
    const execCommand = vi.fn((command: string) => {
      const area = shadowRoot.querySelector('textarea');
      copied.push(`${command}:${area?.value}`);
      return true;
    });
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    const { ui, shadow: shadowRoot } = await renderInFrame(<CopyButton value="865762160918" label="Password" />);
    const button = ui.getByRole('button', { name: 'Copy Password' });
    fireEvent.click(button);
    await waitFor(() => expect(button.textContent).toBe('Copied!'));
    expect(copied).toEqual(['copy:865762160918']);
    // The helper textarea is gone again.
    expect(shadowRoot.querySelector('textarea')).toBeNull();
  });

  it('stays "Copy" when nothing could be copied', async () => {
    stubClipboard(() => Promise.reject(new Error('denied')));
    Object.defineProperty(document, 'execCommand', { value: () => false, configurable: true });
    const { ui } = await renderInFrame(<CopyButton value="x" label="Server" />);
    const button = ui.getByRole('button', { name: 'Copy Server' });
    await act(async () => {
      fireEvent.click(button);
      await Promise.resolve();
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(button.textContent).toBe('Copy');
  });
});
