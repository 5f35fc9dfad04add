import { fireEvent, waitFor } from '@testing-library/dom';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../../core/browser';
import { installApi } from '../../test/api/vitest';
import { mountIndex } from '../../test/mount';

/** An IntersectionObserver the test moves: `show(true)` puts the observed element on screen. */
function fakeObserver() {
  const observers: { cb: IntersectionObserverCallback; targets: Element[] }[] = [];
  class Fake {
    targets: Element[] = [];
    constructor(readonly cb: IntersectionObserverCallback) {
      observers.push(this);
    }
    observe(el: Element) {
      this.targets.push(el);
    }
    disconnect() {
      this.targets = [];
    }
  }
  vi.stubGlobal('IntersectionObserver', Fake);
  return {
    show(on: boolean) {
      act(() => {
        for (const o of observers)
          o.cb(
            o.targets.map((target) => ({ target, isIntersecting: on }) as IntersectionObserverEntry),
            o as unknown as IntersectionObserver,
          );
      });
    },
    watched: () => observers.flatMap((o) => o.targets),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('the sticky total', () => {
  it('shows the total and Pay while the summary’s Pay button is off screen, and pays like it', async () => {
    const api = installApi();
    const io = fakeObserver();
    vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    const { ui } = await mountIndex();
    await waitFor(() => expect(io.watched().map((e) => e.getAttribute('data-testid'))).toContain('pay-button'));
    io.show(false);
    const bar = await ui().findByTestId('sticky-total');
    expect(bar.getAttribute('aria-hidden')).toBe('true');
    await waitFor(() => expect(ui().getByTestId('sticky-total-amount').textContent).toBe('€12.99'));
    // The summary's Pay in view: the bar steps aside.
    io.show(true);
    expect(ui().queryByTestId('sticky-total')).toBeNull();
    io.show(false);
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'buyer@example.com' } });
    await waitFor(() => expect(ui().getByTestId<HTMLButtonElement>('pay-button').disabled).toBe(false));
    expect(ui().getByTestId('sticky-pay').textContent).toContain('Pay €12.99');
    fireEvent.click(ui().getByTestId('sticky-pay'));
    await waitFor(() => expect(api.callsTo('order.create')).toHaveLength(1));
  });

  it('asks for the email first, as the summary’s Pay does', async () => {
    const api = installApi();
    const io = fakeObserver();
    const { ui } = await mountIndex();
    await waitFor(() => expect(io.watched().length).toBeGreaterThan(0));
    io.show(false);
    await waitFor(() => expect(ui().getByTestId('sticky-pay').getAttribute('aria-disabled')).toBeNull());
    fireEvent.click(ui().getByTestId('sticky-pay'));
    expect((await ui().findByTestId('email-error')).textContent).toBeTruthy();
    expect(api.callsTo('order.create')).toHaveLength(0);
  });
});
