import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.tsx'],
  framework: { name: '@storybook/react-vite', options: {} },
  // The stories render the widget's element, not documented components: no prop tables to extract
  // (react-docgen was most of the build time).
  typescript: { reactDocgen: false },
  // The build and the smoke test run offline: no telemetry, no update checks.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
};

export default config;
