import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  // Stories live beside what they show, in the widget's source: the screens' stories beside each
  // screen, the shared components' beside each component (issue 15).
  stories: ['../../widget/src/**/*.stories.tsx', '../../widget/console/src/**/*.stories.tsx'],
  framework: { name: '@storybook/react-vite', options: {} },
  // The stories render the widget's element or a component in its shadow root, not documented
  // components: no prop tables to extract (react-docgen was most of the build time).
  typescript: { reactDocgen: false },
  // The build and the smoke test run offline: no telemetry, no update checks.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
};

export default config;
