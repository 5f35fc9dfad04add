// Inline SVG icons (no icon font, nothing fetched). Decorative: hidden from assistive technology.
//
// Here the icons of the first script's own screens; dist/checkout.js adds the others (iconsMore.tsx)
// to this very table when it loads, so in the script-tag builds the first script carries only these.
import type { ReactElement } from 'react';

const paths: Record<string, ReactElement> = {
  check: <path d="M5 12.5l4.5 4.5L19 7.5" />,
  shield: <path d="M12 3l7 3v5.5c0 4.4-3 8.3-7 9.5-4-1.2-7-5.1-7-9.5V6l7-3z M9 12l2 2 4-4" />,
  spinner: <path d="M12 3a9 9 0 109 9" />,
  alert: <path d="M12 3l10 18H2L12 3z M12 10v4 M12 17.5h.01" />,
  help: <path d="M12 21a9 9 0 100-18 9 9 0 000 18z M9.5 9a2.5 2.5 0 015 .5c0 1.5-2.5 2-2.5 3.5 M12 16.5h.01" />,
};

/** The icons of this table; the checkout module adds the others (iconsMore.tsx, checked there). */
export type FirstIconName = 'check' | 'shield' | 'spinner' | 'alert' | 'help';
export type IconName =
  | FirstIconName
  | 'tag'
  | 'lock'
  | 'copy'
  | 'download'
  | 'tv'
  | 'phone'
  | 'laptop'
  | 'box'
  | 'link'
  | 'home'
  | 'sparkle'
  | 'clock'
  | 'book'
  | 'gauge'
  | 'devices';

export function addIcons(more: Record<string, ReactElement>): void {
  Object.assign(paths, more);
}

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      className={className ? `sc-icon ${className}` : 'sc-icon'}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {paths[name]}
    </svg>
  );
}
