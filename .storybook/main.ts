import type { StorybookConfig } from '@storybook/react-vite';

// Storybook reuses vite.config.ts (React, Tailwind, the @ alias). Its vitest `test` block is ignored by Vite.
const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs'],
  framework: { name: '@storybook/react-vite', options: {} },
  // Builds run offline in CI: no telemetry or "what's new" requests.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  typescript: { reactDocgen: 'react-docgen-typescript' },
  viteFinal: (viteConfig) => ({
    ...viteConfig,
    // The app is served under /busi/; the static Storybook must work from any folder (and file://).
    base: './',
  }),
};

export default config;
