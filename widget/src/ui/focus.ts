// Keyboard focus across the widget's steps. When a step replaces the one the buyer was working in,
// the control they used goes away with it and the browser drops focus on the host page's <body>;
// the new step takes it instead (its heading, or a control that needs attention).
import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { RouteName } from '../core/router';
import { useController } from './context';

/** Shadow roots the visitor has focused something in: from then on, steps take focus. */
const engaged = new WeakSet<ShadowRoot>();
const watched = new WeakSet<ShadowRoot>();

/** Pages a visitor arrives on from elsewhere: on a fresh load they never pull focus into the widget. */
const LANDING: ReadonlySet<RouteName> = new Set<RouteName>(['', 'resellers', 'upsell', 'renew']);

function watch(root: ShadowRoot | null): void {
  if (!root || watched.has(root)) return;
  watched.add(root);
  root.addEventListener('focusin', () => engaged.add(root));
}

/** True when focus is nowhere: on the body, or on the host element with nothing focused inside. */
function focusLost(host: HTMLElement): boolean {
  const active = document.activeElement;
  if (!active || active === document.body || active === document.documentElement) return true;
  return active === host && !host.shadowRoot?.activeElement;
}

/** Focuses `el` when focus was lost (a removed or disabled control); never takes it from elsewhere. */
export function refocus(host: HTMLElement, el: HTMLElement | null | undefined, scroll = false): void {
  if (el && el.isConnected && focusLost(host)) el.focus({ preventScroll: !scroll });
}

/**
 * For a step's heading (give it tabIndex={-1}): on mount, and whenever `key` changes, the step
 * takes focus if it was lost (or is still on this heading). `pick` may name a better target (an
 * error to read first). On a fresh page load the landing pages leave focus alone until the
 * visitor has used the widget.
 */
export function useStepFocus<T extends HTMLElement>(key: unknown = null, pick?: () => HTMLElement | null): RefObject<T | null> {
  const c = useController();
  const ref = useRef<T>(null);
  const pickRef = useRef(pick);
  pickRef.current = pick;
  useLayoutEffect(() => {
    const root = c.host.shadowRoot;
    watch(root);
    if (!root) return;
    if (!engaged.has(root) && LANDING.has(c.getState().route.name)) return;
    const target = pickRef.current?.() ?? ref.current;
    if (target && ref.current && root.activeElement === ref.current) target.focus({ preventScroll: true });
    else refocus(c.host, target);
  }, [c, key]);
  return ref;
}
