// A screen's chunk that fails to load (offline, a deploy replaced it) shows the network error, and
// its "Try again" asks for the chunk again: React.lazy alone would keep the first failure for good.
import { fireEvent, waitFor } from '@testing-library/dom';
import { describe, expect, it, vi } from 'vitest';
import { installApi } from '../../test/api/vitest';
import { mount } from '../../test/mount';

const chunk = vi.hoisted(() => ({ requests: 0 }));

vi.mock('../checkout', async (original) => {
  chunk.requests++;
  if (chunk.requests === 1) throw new Error('Failed to fetch dynamically imported module: checkout.js');
  return original();
});

describe('a screen chunk that failed to load', () => {
  it('shows the network error, and Try again loads the chunk afresh', async () => {
    installApi();
    const { ui } = mount();
    await waitFor(() => expect(ui().getByTestId('error-view')).toBeTruthy());
    expect(chunk.requests).toBe(1);
    fireEvent.click(ui().getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(ui().getByTestId('pay-button')).toBeTruthy());
    expect(chunk.requests).toBe(2);
    expect(ui().queryByTestId('error-view')).toBeNull();
  });
});
