import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Icon } from './icons';

describe('icons', () => {
  it('draws a decorative SVG, hidden from assistive technology', () => {
    const { container } = render(<Icon name="lock" className="sc-spin" />);
    const svg = container.querySelector('svg')!;
    expect(svg.getAttribute('class')).toBe('sc-icon sc-spin');
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.getAttribute('focusable')).toBe('false');
    expect(svg.querySelector('path')?.getAttribute('d')).toMatch(/^M6 11h12/);
  });
});
