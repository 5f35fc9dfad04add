import { expect } from 'vitest';
import { waitFor, within } from '@testing-library/dom';
import '../index';

export function mount(attrs: Record<string, string> = {}) {
  const el = document.createElement('streamcart-checkout');
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  const events: { type: string; detail: unknown }[] = [];
  for (const type of [
    'ready',
    'plan-selected',
    'order-created',
    'payment-started',
    'order-paid',
    'service-ready',
    'renewal-paid',
    'session-changed',
    'locale-changed',
    'currency-changed',
    'error',
  ]) {
    el.addEventListener(`streamcart:${type}`, (e) => events.push({ type, detail: (e as CustomEvent).detail }));
  }
  document.body.appendChild(el);
  const ui = () => {
    // Queries run inside the open shadow root. Its top element is used as the container because
    // Testing Library's waiting queries (findBy*) refuse a ShadowRoot as their container.
    const top = el.shadowRoot?.querySelector<HTMLElement>('.sc-root');
    if (!top) throw new Error('no shadow root content yet');
    return within(top);
  };
  return { el, ui, events, of: (type: string) => events.filter((e) => e.type === type).map((e) => e.detail) };
}

/** Mounts the element and waits for the plan cards. */
export async function mountIndex(attrs: Record<string, string> = {}) {
  const m = mount(attrs);
  await waitFor(() => expect(m.el.shadowRoot?.querySelector('.sc-root')).toBeTruthy());
  await m.ui().findAllByTestId('plan-card');
  await m.ui().findByTestId('pay-button');
  // The catalog may already be there for the first render (the element prefetches it): let React
  // run that render's effects (store subscriptions) before the test acts, as any real click does.
  await new Promise((resolve) => setTimeout(resolve));
  return m;
}
