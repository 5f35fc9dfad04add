import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { CardIcon, PlatformIcon } from './appIcons';

/** The drawing a decorative icon shows (its path), checking it is hidden from assistive technology. */
function drawing(el: ReactElement): string {
  const svg = render(el).container.querySelector('svg')!;
  expect(svg.getAttribute('aria-hidden')).toBe('true');
  return svg.querySelector('path')!.getAttribute('d')!;
}

describe('the success page’s icons', () => {
  it.each([
    ['Fire TV', 'M3 6h18'],
    ['iPhone', 'M7 3h10'],
    ['Windows, macOS, Linux', 'M5 5h14'],
    ['MAG box', 'M3 8l9-5'],
    ['Something else', 'M3 6h18'],
  ])('draws a device for the platform %s (a TV by default)', (platform, start) => {
    expect(drawing(<PlatformIcon platform={platform} />).startsWith(start)).toBe(true);
  });

  it.each([
    ['Setup guide', 'M4 5a2'],
    ['24/7 Support', 'M12 21a9'],
    ['Speed test', 'M4 16a8'],
    ['Devices', 'M2 5h14'],
    ['Telegram', 'M10 14a4'],
  ])('draws a symbol for the card %s (a link otherwise)', (icon, start) => {
    expect(drawing(<CardIcon icon={icon} />).startsWith(start)).toBe(true);
  });
});
