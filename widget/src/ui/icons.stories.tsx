// Every shared inline icon, by name (the success page's device and card icons are in
// screens/order/appIcons.tsx).
import type { Meta, StoryObj } from '@storybook/react-vite';
import { Frame } from '../test/story/Frame';
import { Icon, type IconName } from './icons';

// Every name once: a name missing here or unknown to icons.tsx is a `tsc` error.
const NAMES = Object.keys({
  check: 1,
  shield: 1,
  spinner: 1,
  alert: 1,
  help: 1,
  tag: 1,
  lock: 1,
  copy: 1,
  download: 1,
  link: 1,
  sparkle: 1,
} satisfies Record<IconName, 1>) as IconName[];

export default { title: 'UI/Icons' } satisfies Meta;

export const All: StoryObj = {
  render: () => (
    <Frame>
      <ul style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, 96px)', gap: 16, listStyle: 'none', padding: 0 }}>
        {NAMES.map((name) => (
          <li key={name} style={{ display: 'grid', justifyItems: 'center', gap: 4, fontSize: 12 }}>
            <Icon name={name} />
            {name}
          </li>
        ))}
      </ul>
    </Frame>
  ),
};
