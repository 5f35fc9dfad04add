import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Icon, iconForCard, iconForPlatform } from './icons';

describe('icons', () => {
  it('draws a decorative SVG, hidden from assistive technology', () => {
    const { container } = render(<Icon name="lock" className="sc-spin" />);
    const svg = container.querySelector('svg')!;
    expect(svg.getAttribute('class')).toBe('sc-icon sc-spin');
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.getAttribute('focusable')).toBe('false');
    expect(svg.querySelector('path')?.getAttribute('d')).toMatch(/^M6 11h12/);
  });

  it('picks a utility card’s icon by its name, a link icon otherwise', () => {
    expect(iconForCard('Setup guide')).toBe('book');
    expect(iconForCard('24/7 Support')).toBe('help');
    expect(iconForCard('Speed test')).toBe('gauge');
    expect(iconForCard('Devices')).toBe('devices');
    expect(iconForCard('Telegram')).toBe('link');
  });

  it('picks a platform’s icon, a TV by default', () => {
    expect(iconForPlatform('Fire TV')).toBe('tv');
    expect(iconForPlatform('iPhone')).toBe('phone');
    expect(iconForPlatform('Windows')).toBe('laptop');
    expect(iconForPlatform('MAG box')).toBe('box');
    expect(iconForPlatform('Something')).toBe('tv');
  });
});
