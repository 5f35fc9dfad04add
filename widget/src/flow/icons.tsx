// Inline SVG icons (no icon font, nothing fetched). Decorative: hidden from assistive technology.
//
// Here the status icons the plan page and the small views draw; the checkout's and after-sale
// screens use iconsMore.tsx's Icon, which draws these and the rest of the set.
import type { ReactElement } from 'react';

export const basePaths = {
  check: <path d="M5 12.5l4.5 4.5L19 7.5" />,
  shield: <path d="M12 3l7 3v5.5c0 4.4-3 8.3-7 9.5-4-1.2-7-5.1-7-9.5V6l7-3z M9 12l2 2 4-4" />,
  spinner: <path d="M12 3a9 9 0 109 9" />,
  alert: <path d="M12 3l10 18H2L12 3z M12 10v4 M12 17.5h.01" />,
  help: <path d="M12 21a9 9 0 100-18 9 9 0 000 18z M9.5 9a2.5 2.5 0 015 .5c0 1.5-2.5 2-2.5 3.5 M12 16.5h.01" />,
};

export type BaseIconName = keyof typeof basePaths;

/** One icon's <svg>, drawing `path`. */
export function Svg({ path, className }: { path: ReactElement; className?: string | undefined }) {
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
      {path}
    </svg>
  );
}

export function Icon({ name, className }: { name: BaseIconName; className?: string }) {
  return <Svg path={basePaths[name]} className={className} />;
}
