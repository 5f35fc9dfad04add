import { useEffect, useRef, useState } from 'react';
import { useTexts } from './texts';
import { timing } from '../core/timing';
import { useSheet } from '../element/styles';
import componentsCss from './components.css?inline';

async function copyText(text: string, from: HTMLElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Denied (no permission, no focus): fall through to the selection-based copy.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.cssText = 'position:fixed;top:0;left:0;opacity:0;pointer-events:none';
  // Inside the shadow root, next to the button, so no host style or layout is touched.
  (from?.parentNode ?? document.body).appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** Copies a value; the button reads "Copied!" for 2.5 s (spec §4). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  useSheet(componentsCss);
  const { t } = useTexts('order');
  const [copied, setCopied] = useState(false);
  const ref = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), timing.copiedMs);
    return () => clearTimeout(timer);
  }, [copied]);

  return (
    <button
      ref={ref}
      type="button"
      className={`sc-btn sc-btn-copy${copied ? ' is-copied' : ''}`}
      data-testid="copy-button"
      aria-label={copied ? t.copied : t.copyField(label)}
      onClick={async () => {
        if (await copyText(value, ref.current)) {
          setCopied(false);
          queueMicrotask(() => setCopied(true));
        }
      }}
    >
      {copied ? t.copied : t.copy}
    </button>
  );
}
