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
  tv: <path d="M3 6h18v11H3z M8 21h8 M12 17v4" />,
  phone: <path d="M7 3h10v18H7z M11 18h2" />,
  laptop: <path d="M5 5h14v10H5z M2.5 19h19" />,
  box: <path d="M3 8l9-5 9 5v8l-9 5-9-5V8z M3 8l9 5 9-5 M12 13v8" />,
  link: <path d="M10 14a4 4 0 006 0l3-3a4 4 0 00-6-6l-1 1 M14 10a4 4 0 00-6 0l-3 3a4 4 0 006 6l1-1" />,
  home: <path d="M3 11l9-7 9 7 M6 9.5V20h12V9.5" />,
  sparkle: <path d="M12 3v5 M12 16v5 M3 12h5 M16 12h5 M6 6l3 3 M15 15l3 3 M18 6l-3 3 M9 15l-3 3" />,
  clock: <path d="M12 21a9 9 0 100-18 9 9 0 000 18z M12 7v5l3 2" />,
  book: <path d="M4 5a2 2 0 012-2h13v16H6a2 2 0 00-2 2V5z M4 19a2 2 0 012-2h13" />,
  gauge: <path d="M4 16a8 8 0 1116 0 M12 16l4-5" />,
  devices: <path d="M2 5h14v9H2z M6 18h6 M9 14v4 M18 9h4v11h-4z" />,
} satisfies Record<string, ReactElement>;

export type IconName = keyof typeof paths;

export function Icon({ name, className }: { name: IconName; className?: string | undefined }) {
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

/** Icon for a utility card: the catalog names one; unknown names get a link icon. */
export function iconForCard(icon: string): IconName {
  const i = icon.toLowerCase();
  if (/(book|guide|doc)/.test(i)) return 'book';
  if (/(support|help|chat|mail)/.test(i)) return 'help';
  if (/(speed|fast|gauge)/.test(i)) return 'gauge';
  if (/(device|screen|tv)/.test(i)) return 'devices';
  return 'link';
}

export function iconForPlatform(platform: string): IconName {
  const p = platform.toLowerCase();
  if (/(tv|fire|roku|tizen|webos|android ?tv)/.test(p)) return 'tv';
  if (/(ios|iphone|android|mobile|phone)/.test(p)) return 'phone';
  if (/(windows|mac|linux|desktop|web)/.test(p)) return 'laptop';
  if (/(mag|box|enigma|stb)/.test(p)) return 'box';
  return 'tv';
}
