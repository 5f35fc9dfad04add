// The widget's CSS, adopted into its shadow root (a <style> element where adoptedStyleSheets is
// missing). Nothing is added to the host document.
//
// In the script-tag builds the sheet comes in two halves (scripts/checkout-split.ts): this bundle
// has the rules the plan cards need, dist/checkout.js the rest. Each half is a list of parts joined by
// an empty comment; the chunk's parts go between this bundle's, which restores the original order.
import css from '../styles/widget.css?inline';

const SEPARATOR = '/**/';
const parts = css.split(SEPARATOR);
let current = parts.join('');
const listeners = new Set<() => void>();

let shared: CSSStyleSheet | null | undefined;

/** The CSS the widget has so far: the plan cards' rules until completeCss() adds the rest. */
export function widgetCss(): string {
  return current;
}

export function subscribeCss(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Adds dist/checkout.js's rules, each part where it stood in the original sheet. */
export function completeCss(rest: string): void {
  if (!rest) return;
  const more = rest.split(SEPARATOR);
  if (more.length !== parts.length - 1) throw new Error('the widget CSS does not match this bundle (another build?)');
  current = parts.map((p, i) => p + (more[i] ?? '')).join('');
  shared?.replaceSync(current);
  for (const fn of listeners) fn();
}

export function supportsAdoptedSheets(): boolean {
  return (
    typeof ShadowRoot !== 'undefined' &&
    'adoptedStyleSheets' in ShadowRoot.prototype &&
    typeof CSSStyleSheet !== 'undefined' &&
    'replaceSync' in CSSStyleSheet.prototype
  );
}

/** One constructed sheet shared by every widget on the page, or null when not supported. */
export function sharedSheet(): CSSStyleSheet | null {
  if (shared !== undefined) return shared;
  shared = null;
  if (supportsAdoptedSheets()) {
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(current);
      shared = sheet;
    } catch {
      shared = null;
    }
  }
  return shared;
}

/** The storefront theme's colours and the widget.css properties whose fallbacks they become. */
const THEMED: Record<string, string> = { primary: '_p', bg: '_bg', text: '_text', radius: '_r', font: '_font' };

/**
 * A CSS value that cannot leave its declaration: no ; { } < > \ or comment, quotes and brackets
 * balanced. The server already refuses such values; this keeps a bad answer from breaking the sheet.
 */
export function safeCssValue(value: string): boolean {
  if (!value.trim() || value.length > 200 || /[;{}<>\\\n\r]|\/\*|\*\//.test(value)) return false;
  let depth = 0;
  let quote = '';
  for (const ch of value) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return !quote && depth === 0;
}

/**
 * `:host{--_p:var(--sc-primary,<value>);…}` for the storefront's theme: its colours are fallbacks,
 * so the host page's own --sc-* properties still win. Unknown names and unsafe values are left out.
 */
export function themeCss(theme: Record<string, string> | undefined): string {
  const decls = Object.entries(theme ?? {})
    .filter(([name, value]) => Object.hasOwn(THEMED, name) && safeCssValue(value))
    .map(([name, value]) => `--${THEMED[name]}:var(--sc-${name},${value.trim()})`);
  return decls.length ? `:host{${decls.join(';')}}` : '';
}
