// Entry of the classic-script build (dist/streamcart.iife.js): a few lines that import the ES entry
// served next to this script, so a page without type="module" gets the same module graph (and its
// chunks, loaded by the platform's import()). Nothing is added to the page's globals; the class is
// customElements.get('streamcart-checkout').
const script = document.currentScript;
const base = script instanceof HTMLScriptElement && script.src ? script.src : location.href;
void import(/* @vite-ignore */ new URL('streamcart.js', base).href);
