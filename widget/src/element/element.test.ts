import { fireEvent, waitFor } from '@testing-library/dom';
import { describe, expect, it } from 'vitest';
import { installApi } from '../test/api/vitest';
import { mount, mountIndex } from '../test/mount';

describe('<streamcart-checkout>', () => {
  it('renders into its own open shadow root and leaves the light DOM empty', async () => {
    installApi();
    const { el, ui } = await mountIndex();
    expect(el.shadowRoot?.mode).toBe('open');
    expect(el.childNodes).toHaveLength(0);
    expect(ui().getAllByTestId('plan-card')).toHaveLength(3);
    // jsdom has no adoptedStyleSheets: the CSS goes into a <style> inside the root, never the document.
    expect(el.shadowRoot?.querySelector('style')?.textContent).toContain('.sc-plan');
    expect(document.head.querySelector('style')).toBeNull();
  });

  it('emits streamcart:ready (bubbling, composed) with locale, currency and session', async () => {
    installApi();
    const seen: Event[] = [];
    document.addEventListener('streamcart:ready', (e) => seen.push(e), { once: true });
    const { of } = mount({ locale: 'de-de', currency: 'usd' });
    await waitFor(() => expect(of('ready')).toHaveLength(1));
    expect(of('ready')[0]).toEqual({ locale: 'de-de', currency: 'USD', signedIn: false });
    expect(seen[0]?.bubbles).toBe(true);
    expect(seen[0]?.composed).toBe(true);
  });

  it('sends the store key and asks for prices in the currency attribute', async () => {
    const api = installApi();
    await mountIndex({ store: 'pk_test_1', currency: 'GBP', api: 'https://shop.example/checkout/api' });
    const call = api.callsTo('catalog.listProducts')[0]!;
    expect(call.headers.get('streamcart-store')).toBe('pk_test_1');
    expect(call.query.get('currency')).toBe('GBP');
    expect(call.url).toMatch(/^https:\/\/shop\.example\/checkout\/api\//);
  });

  it('asks for the products as it connects, before React renders, and the plan page reuses the answer', async () => {
    const api = installApi();
    const { el } = mount({ currency: 'usd' });
    expect(api.callsTo('catalog.listProducts').map((c) => c.query.get('currency'))).toEqual(['USD']);
    expect(el.shadowRoot?.querySelector('.sc-root')).toBeFalsy();
    await waitFor(() => expect(el.shadowRoot?.querySelectorAll('[data-testid="plan-card"]')).toHaveLength(3));
    expect(api.callsTo('catalog.listProducts')).toHaveLength(1);
  });

  it('selects the plan attribute, and open(pid) selects another plan', async () => {
    installApi();
    const { el, ui, of } = await mountIndex({ plan: '3' });
    const selected = () =>
      ui()
        .getAllByTestId('plan-card')
        .find((c) => c.getAttribute('aria-checked') === 'true');
    await waitFor(() => expect(selected()?.dataset.pid).toBe('3'));
    el.open(2);
    await waitFor(() => expect(selected()?.dataset.pid).toBe('2'));
    expect(of('plan-selected')).toContainEqual({ pid: 2, billingCycle: 'monthly' });
  });

  it('setLocale switches language, writes browserLang and emits locale-changed', async () => {
    const api = installApi();
    const { el, ui, of } = await mountIndex();
    expect(ui().getByText('Choose your plan')).toBeTruthy();
    el.setLocale('de-de');
    await ui().findByText('Wählen Sie Ihr Paket');
    // The catalog's own texts are asked for in the new language too.
    await waitFor(() => expect(api.callsTo('catalog.listProducts').at(-1)!.query.get('locale')).toBe('de-de'));
    expect(api.callsTo('catalog.listGateways').at(-1)!.query.get('locale')).toBe('de-de');
    expect(document.cookie).toContain('browserLang=de-de');
    expect(of('locale-changed')).toEqual([{ locale: 'de-de' }]);
    el.setLocale('xx-yy');
    expect(of('error')).toContainEqual({ name: 'unknown_locale', message: 'Unknown locale xx-yy' });
  });

  it('setCurrency re-prices the plans and emits currency-changed', async () => {
    const api = installApi();
    const { el, ui, of } = await mountIndex();
    el.setCurrency('usd');
    await waitFor(() => expect(api.callsTo('catalog.listProducts').some((c) => c.query.get('currency') === 'USD')).toBe(true));
    await waitFor(() => expect(ui().getByTestId('price-total').textContent).toContain('$'));
    expect(of('currency-changed')).toEqual([{ currency: 'USD' }]);
  });

  it('reflects attributes as properties', () => {
    const el = document.createElement('streamcart-checkout');
    el.locale = 'nl-nl';
    expect(el.getAttribute('locale')).toBe('nl-nl');
    el.setAttribute('currency', 'GBP');
    expect(el.currency).toBe('GBP');
    el.locale = null;
    expect(el.hasAttribute('locale')).toBe(false);
  });

  it('re-renders when an attribute changes', async () => {
    installApi();
    const { el, ui } = await mountIndex();
    el.setAttribute('locale', 'es-es');
    await ui().findByText('Elige tu plan');
  });

  it('keeps running when moved within the page', async () => {
    installApi();
    const { el, ui } = await mountIndex();
    fireEvent.change(ui().getByTestId('email-input'), { target: { value: 'moved@example.com' } });
    const box = document.createElement('section');
    document.body.appendChild(box);
    box.appendChild(el);
    await Promise.resolve();
    expect(ui().getByTestId<HTMLInputElement>('email-input').value).toBe('moved@example.com');
  });

  it('unmounts when removed from the page', async () => {
    installApi();
    const { el } = await mountIndex();
    el.remove();
    await waitFor(() => expect(el.shadowRoot?.querySelector('[data-testid="plan-card"]')).toBeNull());
  });
});
