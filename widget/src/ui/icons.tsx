// Inline SVG icons (no icon font, nothing fetched). Decorative: hidden from assistive technology.
import type { ReactElement } from 'react';

const paths = {
  check: <path d="M5 12.5l4.5 4.5L19 7.5" />,
  shield: <path d="M12 3l7 3v5.5c0 4.4-3 8.3-7 9.5-4-1.2-7-5.1-7-9.5V6l7-3z M9 12l2 2 4-4" />,
  spinner: <path d="M12 3a9 9 0 109 9" />,
  alert: <path d="M12 3l10 18H2L12 3z M12 10v4 M12 17.5h.01" />,
  help: <path d="M12 21a9 9 0 100-18 9 9 0 000 18z M9.5 9a2.5 2.5 0 015 .5c0 1.5-2.5 2-2.5 3.5 M12 16.5h.01" />,
  tag: <path d="M3 12V4h8l10 10-8 8L3 12z M7.5 7.5h.01" />,
  lock: <path d="M6 11h12v9H6z M8.5 11V8a3.5 3.5 0 017 0v3" />,
  copy: <path d="M9 9h11v11H9z M5 15H4V4h11v1" />,
  download: <path d="M12 4v11 M7 10.5l5 5 5-5 M5 20h14" />,
  link: <path d="M10 14a4 4 0 006 0l3-3a4 4 0 00-6-6l-1 1 M14 10a4 4 0 00-6 0l-3 3a4 4 0 006 6l1-1" />,
  sparkle: <path d="M12 3v5 M12 16v5 M3 12h5 M16 12h5 M6 6l3 3 M15 15l3 3 M18 6l-3 3 M9 15l-3 3" />,
} satisfies Record<string, ReactElement>;

export type IconName = keyof typeof paths;

export function Icon({ name, className }: { name: IconName; className?: string | undefined }) {
  return <Svg className={className}>{paths[name]}</Svg>;
}

/** The frame every icon is drawn in: a 24×24 stroke drawing in the text's colour. */
export function Svg({ className, children }: { className?: string | undefined; children: ReactElement }) {
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
      {children}
    </svg>
  );
}
