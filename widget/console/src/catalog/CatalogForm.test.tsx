import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CatalogForm } from '../schemas';
import { FakeApi } from '../test/fakeApi';
import { renderConsole } from '../test/render';
import { withPrice } from './CatalogForm';

const SHA1 = 'ab'.repeat(32);
const SHA2 = 'cd'.repeat(32);
const YAML = [
  'defaultCurrency: EUR',
  'products:',
  '  - pid: 2',
  '    name: Standard',
  '    cycles:',
  '      monthly:      {EUR: "12.99", GBP: "10.99"}',
  'promotions:',
  '  - code: SUMMER2020',
  '    appliesTo: [2, 3]',
  '',
].join('\n');

const form = (): CatalogForm => ({
  defaultCurrency: 'EUR',
  currencies: ['EUR', 'USD', 'GBP'],
  cycles: ['monthly', 'quarterly', 'semiannually', 'annually', 'biennially', 'triennially', 'onetime'],
  plans: [
    {
      pid: 2,
      group: 'plan',
      name: 'Standard',
      trial: false,
      extras: true,
      proxy: true,
      prices: { monthly: { EUR: '12.99', GBP: '10.99' } },
    },
    { pid: 3, group: 'plan', name: 'Premium', trial: false, extras: true, proxy: true, prices: { monthly: { EUR: '15.99' } } },
  ],
  extras: { id: 2, name: 'Extra connections', maxQty: 4, prices: { monthly: { EUR: '3.00' } } },
  promotions: [
    {
      code: 'SUMMER2020',
      type: 'Percentage',
      value: '20',
      appliesTo: [2, 3],
      products: ['Standard', 'Premium'],
      startDate: '2020-06-01',
      expirationDate: '2020-08-31',
      maxUses: 0,
      recurring: false,
      disabled: false,
      status: 'expired',
    },
    {
      code: 'WELCOME10',
      type: 'Percentage',
      value: '10',
      appliesTo: [2],
      products: ['Standard'],
      startDate: '',
      expirationDate: '',
      maxUses: 0,
      recurring: false,
      disabled: false,
      status: 'active',
    },
  ],
  storefronts: [
    { key: 'pk_test_default', name: 'Streamcart demo', default: true, defaultCurrency: '', defaultLocale: '', allowedOrigins: [] },
  ],
});

const version = (n: number, sha: string, comment = '') => ({
  version: n,
  operator: n ? 'owner@example.com' : '',
  comment,
  sha256: sha,
  createdAt: '2026-11-20T10:00:00Z',
});

/** catalogApi fakes the catalog: the draft writes the form's Standard monthly EUR price into the YAML. */
function catalogApi(role: 'owner' | 'viewer', published = false) {
  let inForce = { v: published ? version(2, SHA1, 'prices') : version(0, SHA1, 'in force (imported)'), source: YAML };
  const versions = published ? [version(2, SHA1, 'prices'), version(1, SHA2)] : [];
  return new FakeApi(role)
    .on('GET', '/catalog', () => ({ version: inForce.v, source: inForce.source, published, form: form() }))
    .on('GET', '/catalog/versions', () => ({ versions }))
    .on('GET', '/catalog/versions/:n', () => ({ version: version(1, SHA2), source: YAML.replace('12.99', '9.99'), published: true }))
    .on('POST', '/catalog/draft', (c) => {
      const f = (c.body as { form: CatalogForm }).form;
      const price = f.plans.find((p) => p.pid === 2)!.prices.monthly!.EUR!;
      const source = YAML.replace('"12.99"', `"${price}"`);
      const diff =
        source === YAML
          ? ''
          : `--- version 0\n+++ draft\n@@ -6 +6 @@\n-      monthly:      {EUR: "12.99", GBP: "10.99"}\n+      monthly:      {EUR: "${price}", GBP: "10.99"}\n`;
      return { source, diff, base: SHA1 };
    })
    .on('POST', '/catalog/check', () => ({ ok: true }))
    .on('PUT', '/catalog', (c) => {
      const b = c.body as { source: string };
      inForce = { v: version(3, SHA2, 'rollback'), source: b.source };
      return { version: inForce.v, source: b.source, published: true };
    });
}

describe('catalog form', () => {
  it('withPrice sets and clears one cell', () => {
    expect(withPrice({ monthly: { EUR: '1' } }, 'monthly', 'EUR', ' 2.50 ')).toEqual({ monthly: { EUR: '2.50' } });
    expect(withPrice({ monthly: { EUR: '1' } }, 'monthly', 'EUR', '')).toEqual({});
  });

  it('a price edited in the form becomes the draft YAML, is reviewed as a diff and published against the version in force', async () => {
    const fake = catalogApi('owner');
    await renderConsole(fake, '/checkout/admin/catalog');
    expect((await screen.findByTestId('catalog-in-force')).textContent).toContain('not yet published here');
    const user = userEvent.setup();
    const price = await screen.findByLabelText<HTMLInputElement>('Standard Monthly EUR');
    expect(price.value).toBe('12.99');
    await user.clear(price);
    await user.type(price, '11.49');
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    const review = await screen.findByTestId('catalog-review');
    const sent = fake.calledWith('POST', '/catalog/draft')[0]!.body as { form: CatalogForm };
    expect(sent.form.plans[0]!.prices).toEqual({ monthly: { EUR: '11.49', GBP: '10.99' } });
    expect(sent.form.plans[1]!.prices).toEqual({ monthly: { EUR: '15.99' } });
    expect(within(review).getByTestId('catalog-diff').textContent).toContain('+      monthly:      {EUR: "11.49", GBP: "10.99"}');
    expect(within(review).getByText('The draft passes the catalog check.')).toBeTruthy();
    expect(fake.calledWith('POST', '/catalog/check')[0]!.body).toEqual({ source: YAML.replace('"12.99"', '"11.49"') });
    await user.click(within(review).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('Published as version 3; the storefront shows it now.')).toBeTruthy();
    const put = fake.calledWith('PUT', '/catalog')[0]!;
    expect(put.body).toEqual({ source: YAML.replace('"12.99"', '"11.49"'), base: SHA1 });
    expect(put.headers['x-csrf-token'] ?? put.headers['X-CSRF-Token']).toBeTruthy();
  });

  it('promotions show product names and an expired one as expired', async () => {
    const fake = catalogApi('owner');
    await renderConsole(fake, '/checkout/admin/catalog');
    const summer = await screen.findByTestId('promo-SUMMER2020');
    expect(within(summer).getByText('expired')).toBeTruthy();
    expect(within(summer).getByRole('checkbox', { name: 'Standard' })).toHaveProperty('checked', true);
    expect(within(summer).getByRole('checkbox', { name: 'Premium' })).toHaveProperty('checked', true);
    expect(within(screen.getByTestId('promo-WELCOME10')).getByText('active')).toBeTruthy();
  });

  it('the Promotions screen names the products and marks an expired promotion expired', async () => {
    const fake = new FakeApi('viewer').on('GET', '/promotions', () => ({
      promotions: [
        {
          ...form().promotions[0]!,
          uses: 3,
        },
      ],
    }));
    await renderConsole(fake, '/checkout/admin/promotions');
    const row = (await screen.findByText('SUMMER2020')).closest('tr')!;
    expect(row.textContent).toContain('Standard, Premium');
    expect(within(row).getByText('expired')).toBeTruthy();
    expect(row.textContent).not.toContain('2, 3');
  });

  it('a publish made stale by another says so and changes nothing', async () => {
    const fake = catalogApi('owner', true).on('PUT', '/catalog', () => ({
      status: 409,
      body: { name: 'conflict', id: 'e1', message: 'changed', temporary: false, timeout: false, fault: false },
    }));
    await renderConsole(fake, '/checkout/admin/catalog');
    const user = userEvent.setup();
    await user.clear(await screen.findByLabelText('Standard Monthly EUR'));
    await user.type(screen.getByLabelText('Standard Monthly EUR'), '10.99');
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    await user.click(within(await screen.findByTestId('catalog-review')).getByRole('button', { name: 'Publish' }));
    expect((await screen.findByText(/Another version was published since this draft was made/)).textContent).toContain(
      'Review the changes again',
    );
    expect(screen.getByTestId('catalog-review')).toBeTruthy();
  });

  it('rolls back to an earlier version after a confirmation; a viewer reads only', async () => {
    const fake = catalogApi('owner', true);
    await renderConsole(fake, '/checkout/admin/catalog');
    expect((await screen.findByTestId('catalog-in-force')).textContent).toContain('Version 2 in force since');
    const user = userEvent.setup();
    // A publish first: the rollback's outcome then replaces the publish's.
    await user.clear(await screen.findByLabelText('Standard Monthly EUR'));
    await user.type(screen.getByLabelText('Standard Monthly EUR'), '10.99');
    await user.click(screen.getByRole('button', { name: 'Review changes' }));
    await user.click(within(await screen.findByTestId('catalog-review')).getByRole('button', { name: 'Publish' }));
    await screen.findByText(/Published as version 3/);
    await user.click(await screen.findByRole('button', { name: 'Roll back to version 1' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('becomes the one in force');
    expect(fake.calledWith('PUT', '/catalog')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Roll back to version 1' }));
    expect(await screen.findByText('Rolled back to version 1 (now version 3).')).toBeTruthy();
    expect(screen.queryByText(/Published as version/)).toBeNull();
    expect(fake.calledWith('PUT', '/catalog')[1]!.body).toEqual({
      source: YAML.replace('12.99', '9.99'),
      comment: 'rollback to version 1',
      base: SHA2,
    });

    const viewer = catalogApi('viewer', true);
    await renderConsole(viewer, '/checkout/admin/catalog');
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Review changes' }).at(-1)).toHaveProperty('disabled', true));
  });

  it('a viewer has no editing action enabled, in the form or in Advanced with a version loaded', async () => {
    await renderConsole(catalogApi('viewer', true), '/checkout/admin/catalog');
    await screen.findByLabelText('Standard Monthly EUR');
    const editing = () =>
      screen
        .getAllByRole('button')
        .filter((b) => /^(Review changes|Discard changes|Publish|Roll back to version \d+)$/.test(b.textContent ?? ''));
    expect(editing().map((b) => [b.textContent, (b as HTMLButtonElement).disabled])).toEqual([
      ['Review changes', true],
      ['Discard changes', true],
      ['Roll back to version 1', true],
    ]);
    const user = userEvent.setup();
    // Reading an older version into Advanced is reading: it stays allowed, its source read-only.
    await user.click(screen.getByRole('button', { name: 'Load version 1' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Advanced (YAML)' }).getAttribute('aria-pressed')).toBe('true'));
    expect(screen.getByLabelText<HTMLTextAreaElement>('Catalog (YAML or JSON)').readOnly).toBe(true);
    expect(editing().map((b) => [b.textContent, (b as HTMLButtonElement).disabled])).toEqual([
      ['Review changes', true],
      ['Discard changes', true],
      ['Roll back to version 1', true],
    ]);
  });
});
