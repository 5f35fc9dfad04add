// The widget's CSS, adopted into its shadow root (a <style> element where adoptedStyleSheets is
// missing). Nothing is added to the host document.
//
// widget.css is what every screen shares and the plan page needs (the first script); a screen of
// its own chunk (and a component only such screens use) brings its own sheet, imported ?inline, and
// hands it to its element with useSheet(), which adds it after widget.css before it first paints.
import { createContext, useContext, useLayoutEffect } from 'react';
import css from './widget.css?inline';

let shared: CSSStyleSheet | null | undefined;
const constructedSheets = new Map<string, CSSStyleSheet>();

/** The shared widget CSS. */
export function widgetCss(): string {
  return css;
}

/** Adds a sheet to the element that renders the caller (Shell provides it). */
export const SheetContext = createContext<(css: string) => void>(() => undefined);

/** The caller's own CSS, in its element's shadow root before the caller first paints. */
export function useSheet(sheetCss: string): void {
  const add = useContext(SheetContext);
  useLayoutEffect(() => add(sheetCss), [add, sheetCss]);
}

/** One constructed sheet per CSS text, shared by every widget on the page. */
export function constructedSheet(sheetCss: string): CSSStyleSheet {
  let sheet = constructedSheets.get(sheetCss);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(sheetCss);
    constructedSheets.set(sheetCss, sheet);
  }
  return sheet;
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
      sheet.replaceSync(css);
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
