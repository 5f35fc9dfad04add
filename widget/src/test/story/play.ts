// Interactions that take a story to its state, inside the widget's open shadow root.
import { userEvent, waitFor } from 'storybook/test';

const TIMEOUT = 8000;

/** The widget's shadow root once it has rendered. */
export async function widget(canvas: HTMLElement): Promise<ShadowRoot> {
  return waitFor(
    () => {
      const root = canvas.querySelector('streamcart-checkout')?.shadowRoot;
      if (!root?.querySelector('.sc-root')) throw new Error('the widget has not rendered yet');
      return root;
    },
    { timeout: TIMEOUT },
  );
}

/** Waits for an element (by data-testid or a CSS selector) that `ok` accepts. */
export async function find<T extends HTMLElement = HTMLElement>(
  root: ShadowRoot,
  what: string,
  ok: (el: T) => boolean = () => true,
): Promise<T> {
  const selector = /^[a-z0-9-]+$/.test(what) ? `[data-testid="${what}"]` : what;
  return waitFor(
    () => {
      const el = [...root.querySelectorAll<T>(selector)].find(ok);
      if (!el) throw new Error(`no ${selector} yet`);
      return el;
    },
    { timeout: TIMEOUT },
  );
}

export const enabled = (el: HTMLElement) => !(el as HTMLButtonElement).disabled;

export async function click(root: ShadowRoot, what: string, ok?: (el: HTMLElement) => boolean) {
  await userEvent.click(await find(root, what, ok ?? enabled));
}

/**
 * Fills a field like a paste, then leaves it. user-event cannot type here: it checks focus against
 * document.activeElement, which is the shadow host, never the input inside it.
 */
export async function type(root: ShadowRoot, what: string, text: string) {
  const input = await find<HTMLInputElement>(root, what);
  input.focus();
  setValue(input, text);
  input.blur();
}

function setValue(input: HTMLInputElement, value: string) {
  // React tracks the value it last rendered; the native setter makes the change visible to it.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/** The pay button once the price is known (it stays disabled while the quote loads). */
export async function pay(root: ShadowRoot) {
  await click(root, 'pay-button');
}

/** Sets a range input the way a drag does (user-event cannot drag a slider). */
export async function slide(root: ShadowRoot, what: string, value: number) {
  setValue(await find<HTMLInputElement>(root, what), String(value));
}

/** Waits until the widget shows `text` somewhere in its shadow root. */
export async function shows(root: ShadowRoot, text: string) {
  await waitFor(
    () => {
      if (!root.textContent?.includes(text)) throw new Error(`"${text}" is not shown`);
    },
    { timeout: TIMEOUT },
  );
}
