import type { StorybookConfig } from '@storybook/react-vite';

// Storybook reuses vite.config.ts (React, Tailwind, the @ alias). Its vitest `test` block is ignored by Vite.
const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs'],
  framework: { name: '@storybook/react-vite', options: {} },
  // Builds run offline in CI: no telemetry or "what's new" requests.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // react-docgen would build with about a third less CPU (17.7 s against 26.4 s in one run) but documents less: no
  // method-style callback props (`onChange(value): void`), no cva variants, no Radix-inherited props, and `unknown`
  // for imported types (docs/architecture.md, "Performance").
  typescript: { reactDocgen: 'react-docgen-typescript' },
  viteFinal: (viteConfig) => ({
    ...viteConfig,
    // The app is served under /busi/; the static Storybook must work from any folder (and file://).
    base: './',
  }),
};

export default config;
