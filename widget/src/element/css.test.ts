// The script-tag builds ship the CSS in two halves (scripts/checkout-split.ts): the parts of the
// first script's half, and the chunk's parts that go between them.
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../styles/widget.css?inline', () => ({ default: ':host{a:1}/**/.sc-grid{b:2}/**/' }));

afterEach(() => vi.resetModules());

describe('completeCss', () => {
  it('puts each of the chunk parts back where it stood and tells the subscribers', async () => {
    const css = await import('./styles');
    expect(css.widgetCss()).toBe(':host{a:1}.sc-grid{b:2}');
    const seen = vi.fn();
    css.subscribeCss(seen);
    css.completeCss('.sc-form{c:3}/**/.sc-summary{d:4}');
    expect(css.widgetCss()).toBe(':host{a:1}.sc-form{c:3}.sc-grid{b:2}.sc-summary{d:4}');
    expect(seen).toHaveBeenCalledTimes(1);
  });

  it('refuses the parts of another build', async () => {
    const css = await import('./styles');
    expect(() => css.completeCss('.sc-form{c:3}')).toThrow(/does not match/);
    expect(css.widgetCss()).toBe(':host{a:1}.sc-grid{b:2}');
  });
});
