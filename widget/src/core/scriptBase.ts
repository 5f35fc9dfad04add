// The URL the bundle was loaded from, for the files served next to it (locale tables, the
// after-sale screens). Evaluated once, while the script first runs.
function scriptBase(): string {
  // The ES build knows its own URL. In the classic-script build import.meta is an empty object,
  // and document.currentScript names the script while it first runs (this line runs then).
  const url = (import.meta as { url?: string }).url;
  if (url) return url;
  const script = typeof document !== 'undefined' ? document.currentScript : null;
  return script instanceof HTMLScriptElement && script.src ? script.src : location.href;
}

export const SCRIPT_BASE = scriptBase();
