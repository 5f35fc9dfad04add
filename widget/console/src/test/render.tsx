import { render, screen, waitFor } from '@testing-library/react';
import { App } from '../App';
import { navigate } from '../router';
import type { FakeApi } from './fakeApi';

/** renderConsole mounts the app at path against the fake, and waits for the first heading and the
 * screen's code (each screen is a lazy chunk: App.tsx). */
export async function renderConsole(fake: FakeApi, path = '/checkout/admin/') {
  navigate(path, true);
  const view = render(<App fetch={fake.fetch} />);
  await screen.findByRole('heading', { level: 1 });
  await waitFor(() => {
    if (screen.queryByTestId('screen-loading')) throw new Error("the screen's chunk is still loading");
  });
  return view;
}
