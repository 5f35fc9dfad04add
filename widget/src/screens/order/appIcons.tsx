// The success page's own icons: a device for each player app's platform and a symbol for each
// utility card of the storefront. Only this page draws them, so they load with it.
import type { ReactElement } from 'react';
import { Icon, Svg } from '../../ui/icons';

const devices = {
  tv: <path d="M3 6h18v11H3z M8 21h8 M12 17v4" />,
  phone: <path d="M7 3h10v18H7z M11 18h2" />,
  laptop: <path d="M5 5h14v10H5z M2.5 19h19" />,
  box: <path d="M3 8l9-5 9 5v8l-9 5-9-5V8z M3 8l9 5 9-5 M12 13v8" />,
} satisfies Record<string, ReactElement>;

const cards = {
  book: <path d="M4 5a2 2 0 012-2h13v16H6a2 2 0 00-2 2V5z M4 19a2 2 0 012-2h13" />,
  gauge: <path d="M4 16a8 8 0 1116 0 M12 16l4-5" />,
  devices: <path d="M2 5h14v9H2z M6 18h6 M9 14v4 M18 9h4v11h-4z" />,
} satisfies Record<string, ReactElement>;

function platformDevice(platform: string): keyof typeof devices {
  const p = platform.toLowerCase();
  if (/(tv|fire|roku|tizen|webos|android ?tv)/.test(p)) return 'tv';
  if (/(ios|iphone|android|mobile|phone)/.test(p)) return 'phone';
  if (/(windows|mac|linux|desktop|web)/.test(p)) return 'laptop';
  if (/(mag|box|enigma|stb)/.test(p)) return 'box';
  return 'tv';
}

/** The device a player app runs on, from its platform line ("Android TV", "iOS"…). */
export function PlatformIcon({ platform }: { platform: string }) {
  return <Svg>{devices[platformDevice(platform)]}</Svg>;
}

/** A utility card's icon: the catalog names one; unknown names get a link icon. */
export function CardIcon({ icon }: { icon: string }) {
  const i = icon.toLowerCase();
  if (/(book|guide|doc)/.test(i)) return <Svg>{cards.book}</Svg>;
  if (/(support|help|chat|mail)/.test(i)) return <Icon name="help" />;
  if (/(speed|fast|gauge)/.test(i)) return <Svg>{cards.gauge}</Svg>;
  if (/(device|screen|tv)/.test(i)) return <Svg>{cards.devices}</Svg>;
  return <Icon name="link" />;
}
