// Renders a shared component in the stories' Frame (its shadow root, the widget's CSS, controller
// and texts) and queries inside that shadow root.
import { cleanup, render, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach } from 'vitest';
import type { Controller } from '../core/controller';
import { Frame } from './story/Frame';

// No Vitest globals here, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

export async function renderInFrame(ui: ReactElement, opts: { locale?: string; controller?: Controller } = {}) {
  const framed = (node: ReactElement) => (
    <Frame locale={opts.locale ?? 'en'} {...(opts.controller ? { controller: opts.controller } : {})}>
      {node}
    </Frame>
  );
  const r = render(framed(ui));
  const host = r.container.querySelector<HTMLElement>('[data-component-frame]');
  if (!host) throw new Error('the frame rendered no host');
  // Testing Library's waiting queries refuse a ShadowRoot as their container: its .sc-root it is.
  const top = await waitFor(() => {
    const el = host.shadowRoot?.querySelector<HTMLElement>('.sc-root');
    if (!el) throw new Error('the frame has not rendered yet');
    return el;
  });
  const shadow = host.shadowRoot!;
  return {
    host,
    shadow,
    /** The CSS the shadow root has: adopted sheets, or <style> elements where those are missing. */
    css: () =>
      [
        // (jsdom has no adoptedStyleSheets: the Frame falls back to <style>, as the element does.)
        ...(shadow.adoptedStyleSheets ?? []).flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)),
        ...[...shadow.querySelectorAll('style')].map((style) => style.textContent),
      ].join('\n'),
    ui: within(top),
    rerender: (next: ReactElement) => r.rerender(framed(next)),
  };
}
