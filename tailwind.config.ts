import type { Config } from 'tailwindcss';

/**
 * Tailwind 4 is configured in CSS: the design tokens (colours, radius, fonts, animations) live in
 * src/styles/theme.css. This file only holds what reads better in TypeScript and is loaded from
 * src/styles/globals.css through `@config`.
 */
export default {
  // Sources besides Tailwind's automatic detection: stories and the Storybook preview (a dot-folder).
  content: ['./index.html', './src/**/*.{ts,tsx}', './stories/**/*.{ts,tsx}', './.storybook/**/*.{ts,tsx}'],
  theme: {
    extend: {
      screens: {
        // Wall displays (1920 px wide). In rem like Tailwind's own breakpoints so they sort together;
        // media queries use the browser's 16 px rem, not the enlarged wall font size.
        wall: '120rem',
      },
    },
  },
} satisfies Config;
