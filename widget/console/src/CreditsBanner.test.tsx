import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi, errorBody, job, summary } from './test/fakeApi';
import { renderConsole } from './test/render';

const credits = (over: Record<string, unknown> = {}) => ({ known: true, balance: 3, alert: 10, low: true, unavailable: [], ...over });

describe('low panel credits banner', () => {
  it('shows on every screen while the balance is at or under the mark, with the plans it cannot cover and a how-to link', async () => {
    const fake = new FakeApi('viewer')
      .on('GET', '/summary', () => summary())
      .on('GET', '/jobs', () => ({ jobs: [job()] }))
      .on('GET', '/panel/credits', () => credits({ balance: 0, unavailable: ['Standard', 'Premium'] }));
    await renderConsole(fake);
    const banner = await screen.findByTestId('credits-banner');
    expect(banner.textContent).toBe('Panel credits low: 0 left (alert at 10). Plans unavailable: Standard, Premium. How to top up');
    expect(screen.getByRole('link', { name: 'How to top up' }).getAttribute('href')).toMatch(/docs\/operations\.md#panel-credits$/);

    await userEvent.click(screen.getByRole('link', { name: 'Jobs' }));
    await screen.findByRole('heading', { level: 1, name: 'Jobs' });
    expect((await screen.findByTestId('credits-banner')).textContent).toContain('Panel credits low: 0 left (alert at 10).');
    // Asked again on each screen, so a top-up shows without a reload.
    await waitFor(() => expect(fake.calledWith('GET', '/panel/credits').length).toBeGreaterThanOrEqual(2));
  });

  it('says every plan still sells when the low balance still covers them', async () => {
    const fake = new FakeApi('owner').on('GET', '/summary', () => summary()).on('GET', '/panel/credits', () => credits({ balance: 7.5 }));
    await renderConsole(fake);
    expect((await screen.findByTestId('credits-banner')).textContent).toBe(
      'Panel credits low: 7.5 left (alert at 10). Every plan can still be sold. How to top up',
    );
  });

  it.each([
    ['not low', credits({ balance: 500, low: false })],
    ['a panel that reports no balance', credits({ known: false, balance: 0, low: false, alert: -1 })],
  ])('shows nothing when %s', async (_name, body) => {
    const fake = new FakeApi('owner').on('GET', '/summary', () => summary()).on('GET', '/panel/credits', () => body);
    await renderConsole(fake);
    await screen.findByTestId('counts');
    await waitFor(() => expect(fake.calledWith('GET', '/panel/credits')).toHaveLength(1));
    expect(screen.queryByTestId('credits-banner')).toBeNull();
  });

  it.each([
    ['a 403', () => ({ status: 403, body: errorBody('forbidden') })],
    ['a malformed answer', () => ({ known: true, balance: 'lots' })],
  ])('leaves the page working after %s', async (_name, reply) => {
    const fake = new FakeApi('owner').on('GET', '/summary', () => summary()).on('GET', '/panel/credits', reply, { offContract: true });
    await renderConsole(fake);
    await waitFor(() => expect(fake.calledWith('GET', '/panel/credits')).toHaveLength(1));
    expect(await screen.findByTestId('counts')).toBeTruthy();
    expect(screen.queryByTestId('credits-banner')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
