// The success page's own icons: a device per player app platform, a symbol per utility card.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Frame } from '../../test/story/Frame';
import { CardIcon, PlatformIcon } from './appIcons';

const PLATFORMS = ['Android TV', 'iOS', 'Windows, macOS, Linux', 'MAG box'];
const CARDS = ['Setup guide', '24/7 support', 'Speed test', 'Devices', 'Telegram'];

const cell = { display: 'grid', justifyItems: 'center', gap: 4, fontSize: 12 } as const;
const grid = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, 120px)', gap: 16, listStyle: 'none', padding: 0 } as const;

export default { title: 'UI/App icons' } satisfies Meta;

export const All: StoryObj = {
  render: () => (
    <Frame>
      <ul style={grid}>
        {PLATFORMS.map((p) => (
          <li key={p} style={cell}>
            <PlatformIcon platform={p} />
            {p}
          </li>
        ))}
        {CARDS.map((c) => (
          <li key={c} style={cell}>
            <CardIcon icon={c} />
            {c}
          </li>
        ))}
      </ul>
    </Frame>
  ),
};
