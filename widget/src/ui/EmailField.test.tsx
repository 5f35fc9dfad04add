import { fireEvent, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderInFrame } from '../test/frame';
import { EmailField, isValidEmail } from './EmailField';

function Controlled({ initial = '', forced = 0 }: { initial?: string; forced?: number }) {
  const [value, setValue] = useState(initial);
  return <EmailField value={value} onChange={setValue} forced={forced} />;
}

describe('isValidEmail', () => {
  it('wants text, @, text, a dot and text, without spaces (spec §5)', () => {
    expect(isValidEmail('buyer@example.com')).toBe(true);
    expect(isValidEmail('a@b.c')).toBe(true);
    expect(isValidEmail('buyer@example')).toBe(false);
    expect(isValidEmail('buyer example@x.com')).toBe(false);
    expect(isValidEmail('@example.com')).toBe(false);
    expect(isValidEmail('')).toBe(false);
  });
});

describe('EmailField', () => {
  it('says nothing while empty or valid', async () => {
    const { ui } = await renderInFrame(<Controlled />);
    const input = ui.getByLabelText('Email address');
    expect(ui.queryByRole('alert')).toBeNull();
    fireEvent.change(input, { target: { value: 'buyer@example.com' } });
    fireEvent.blur(input);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ui.queryByRole('alert')).toBeNull();
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBe('sc-email-hint');
  });

  it('shows the spec message for an invalid address, and drops it once valid', async () => {
    const { ui } = await renderInFrame(<Controlled />);
    const input = ui.getByLabelText('Email address');
    fireEvent.change(input, { target: { value: 'buyer@example' } });
    const alert = await ui.findByRole('alert');
    expect(alert.textContent).toBe('Please enter a Valid Email.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('sc-email-error sc-email-hint');
    fireEvent.change(input, { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui.queryByRole('alert')).toBeNull());
  });

  it('checks an address it starts with at once', async () => {
    const { ui } = await renderInFrame(<Controlled initial="nope" />);
    expect(ui.getByRole('alert').textContent).toBe('Please enter a Valid Email.');
  });

  it('asks for an address when the pay button is pressed on an empty field, until typing starts', async () => {
    const { ui, rerender } = await renderInFrame(<Controlled />);
    expect(ui.queryByRole('alert')).toBeNull();
    rerender(<Controlled forced={1} />);
    const alert = await ui.findByRole('alert');
    expect(alert.textContent).toBe('Please enter your email address.');
    fireEvent.change(ui.getByLabelText('Email address'), { target: { value: 'b' } });
    await waitFor(() => expect(ui.queryByText('Please enter your email address.')).toBeNull());
  });
});
