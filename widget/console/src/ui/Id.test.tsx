import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Id, shortId } from './Id';

describe('Id', () => {
  it('abbreviates a long id in the middle and keeps short ones whole', () => {
    expect(shortId('ord_01m8jpq5n2g187w8eww28tm5mp')).toBe('ord_01m8…8tm5mp');
    expect(shortId('ord_1')).toBe('ord_1');
    expect(shortId('a'.repeat(18))).toBe('a'.repeat(18));
  });

  it('keeps the whole id as the accessible text and the tooltip', () => {
    render(
      <a href="/x">
        <Id value="svc_01m8jppj6azdeqrwre4na4dtj0" />
      </a>,
    );
    const link = screen.getByRole('link', { name: 'svc_01m8jppj6azdeqrwre4na4dtj0' });
    expect(link.querySelector('code')?.getAttribute('title')).toBe('svc_01m8jppj6azdeqrwre4na4dtj0');
    expect(link.querySelector('[aria-hidden="true"]')?.textContent).toBe('svc_01m8…a4dtj0');
  });
});
