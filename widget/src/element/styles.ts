// The widget's CSS, adopted into its shadow root (a <style> element where adoptedStyleSheets is
// missing). Nothing is added to the host document.
import css from '../styles/widget.css?inline';

export const widgetCss: string = css;

let shared: CSSStyleSheet | null | undefined;

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
