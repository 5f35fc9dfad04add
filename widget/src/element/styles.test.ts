// Where the browser supports constructable style sheets, the CSS is adopted into the shadow root
// (no <style> element). jsdom lacks adoptedStyleSheets, so this file gives ShadowRoot one before the
// widget is loaded.
import { waitFor } from '@testing-library/dom';
import { describe, expect, it } from 'vitest';
import { installApi } from '../test/api/vitest';
import { body } from '../test/api/fixtures';

const adopted = new WeakMap<ShadowRoot, CSSStyleSheet[]>();
Object.defineProperty(ShadowRoot.prototype, 'adoptedStyleSheets', {
  configurable: true,
  get(this: ShadowRoot) {
    return adopted.get(this) ?? [];
  },
  set(this: ShadowRoot, sheets: CSSStyleSheet[]) {
    adopted.set(this, sheets);
  },
});

describe('adopted style sheets', () => {
  it('adopts one shared sheet into each widget and adds no <style>', async () => {
    installApi();
    await import('../index');
    const a = document.createElement('streamcart-checkout');
    const b = document.createElement('streamcart-checkout');
    document.body.append(a, b);
    // The shared widget CSS, then the element's own sheet for its storefront's theme.
    await waitFor(() => expect(a.shadowRoot?.adoptedStyleSheets).toHaveLength(2));
    await waitFor(() => expect(b.shadowRoot?.adoptedStyleSheets).toHaveLength(2));
    expect(a.shadowRoot!.adoptedStyleSheets[0]).toBe(b.shadowRoot!.adoptedStyleSheets[0]);
    expect(a.shadowRoot!.adoptedStyleSheets[1]).not.toBe(b.shadowRoot!.adoptedStyleSheets[1]);
    expect(a.shadowRoot!.querySelector('style')).toBeNull();
    const rules = Array.from(a.shadowRoot!.adoptedStyleSheets[0]!.cssRules)
      .map((r) => r.cssText)
      .join('\n');
    expect(rules).toContain('.sc-plan');
    expect(document.adoptedStyleSheets ?? []).toHaveLength(0);
  });

  it("adopts the storefront's theme once GET /storefront answers", async () => {
    const api = installApi();
    api.on('catalog.storefront', () => ({
      ...body<{ name: string }>('catalog.storefront', '200'),
      name: 'Teal',
      theme: { primary: '#0f766e' },
    }));
    await import('../index');
    const el = document.createElement('streamcart-checkout');
    document.body.append(el);
    await waitFor(() => {
      const theme = el.shadowRoot?.adoptedStyleSheets[1];
      expect(
        Array.from(theme?.cssRules ?? [])
          .map((r) => r.cssText)
          .join(''),
      ).toContain('--_p: var(--sc-primary,#0f766e)');
    });
  });
});
