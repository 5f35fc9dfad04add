// The first script's CSS is widget.css; a screen of its own chunk brings its own sheet, which its
// element adds after the shared one before the screen paints (jsdom has no adoptedStyleSheets, so
// here the sheets are <style> elements, in the same order).
import { waitFor } from '@testing-library/dom';
import { describe, expect, it } from 'vitest';
import { installApi } from '../test/api/vitest';
import { mount } from '../test/mount';

const styles = (el: Element) => Array.from(el.shadowRoot!.querySelectorAll('style')).map((s) => s.textContent ?? '');

describe('sheets of the screens', () => {
  it('adds the checkout form’s sheets once the form is there, after the shared one, once each', async () => {
    installApi();
    const { el, ui } = mount();
    await waitFor(() => expect(el.shadowRoot!.querySelector('[data-testid="plan-card"]')).not.toBeNull());
    expect(styles(el)[0]).toContain('.sc-plan');
    expect(styles(el).join('')).not.toContain('.sc-gateway');
    const pay = await ui().findByTestId('pay-button');
    // Styled in the commit that first shows it: the sheet is there with the button.
    expect(pay.isConnected).toBe(true);
    const all = styles(el);
    expect(all[0]).toContain(':host');
    expect(all.findIndex((css) => css.includes('.sc-gateway'))).toBeGreaterThan(0);
    expect(all.filter((css) => css.includes('.sc-summary'))).toHaveLength(1);
  });
});
