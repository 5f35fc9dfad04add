import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CSRF, FakeApi, errorBody, job, summary } from './test/fakeApi';
import { renderConsole } from './test/render';

describe('console shell', () => {
  it('asks to sign in without a session, signs in with the code, and sends X-CSRF-Token on a change', async () => {
    const fake = new FakeApi(null)
      .on('GET', '/summary', () => summary())
      .on('GET', '/jobs', () => ({ jobs: [job()] }))
      .on('POST', '/jobs/:id/retry', (_c, [id]) => job({ id: Number(id), state: 'queued', attempts: 0 }));
    await renderConsole(fake, '/checkout/admin/jobs');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'me@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong password!');
    await user.type(screen.getByLabelText('Authenticator code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong email, password or code.');

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.type(screen.getByLabelText('Authenticator code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    // The URL asked for is the screen shown after signing in.
    expect(await screen.findByRole('heading', { level: 1, name: 'Jobs' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Jobs' }).getAttribute('aria-current')).toBe('page');
    expect(fake.calledWith('POST', '/session')[1]!.body).toEqual({
      email: 'me@example.com',
      password: 'correct horse battery',
      otp: '123456',
    });

    await user.click(await screen.findByRole('button', { name: 'Retry' }));
    expect((await screen.findByRole('status', { name: '' })).textContent).toBe('Job 7 queued to run now.');
    const retry = fake.calledWith('POST', '/jobs/7/retry');
    expect(retry).toHaveLength(1);
    expect(retry[0]!.headers['x-csrf-token']).toBe(CSRF);
    // Reads carry no token.
    expect(fake.calledWith('GET', '/jobs')[0]!.headers['x-csrf-token']).toBeUndefined();
  });

  it('reloads the CSRF token from GET /admin/session and signs out', async () => {
    const fake = new FakeApi('support').on('GET', '/summary', () => summary());
    await renderConsole(fake);
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByTestId('operator').textContent).toBe('me@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(fake.calledWith('DELETE', '/session')[0]!.headers['x-csrf-token']).toBe(CSRF);
  });

  it('goes back to sign-in when any call answers 401 (the session ended)', async () => {
    const fake = new FakeApi('owner').on('GET', '/summary', () => summary());
    await renderConsole(fake);
    await screen.findByTestId('counts');
    fake.signedIn = null;
    await userEvent.click(screen.getByRole('link', { name: 'Orders' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
  });

  it('disables what a viewer may not do, and shows a 403 forbidden plainly', async () => {
    const fake = new FakeApi('viewer')
      .on('GET', '/jobs', () => ({ jobs: [job()] }))
      .on('GET', '/catalog', () => ({ status: 403, body: errorBody('forbidden', 'role viewer may not') }))
      .on('GET', '/catalog/versions', () => ({ versions: [] }));
    await renderConsole(fake, '/checkout/admin/jobs');
    const row = (await screen.findByText('panel: connection refused')).closest('tr')!;
    expect(within(row).getByRole<HTMLButtonElement>('button', { name: 'Retry' }).disabled).toBe(true);
    expect(within(row).getByRole<HTMLButtonElement>('button', { name: 'Cancel' }).disabled).toBe(true);

    await userEvent.click(screen.getByRole('link', { name: 'Catalog' }));
    const note = await screen.findByTestId('forbidden');
    expect(note.textContent).toBe('Your role does not allow this (403 forbidden).');
    expect(note.getAttribute('role')).toBe('alert');
  });

  it('moves the focus to the new screen heading after a navigation, and names unknown pages', async () => {
    const fake = new FakeApi('owner').on('GET', '/summary', () => summary()).on('GET', '/jobs', () => ({ jobs: [] }));
    await renderConsole(fake);
    await userEvent.click(screen.getByRole('link', { name: 'Jobs' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Jobs'));
    expect(document.title).toBe('Jobs · Streamcart console');
    await renderConsole(fake, '/checkout/admin/nowhere');
    expect(screen.getAllByRole('heading', { level: 1 }).some((h) => h.textContent === 'Page not found')).toBe(true);
  });
});
