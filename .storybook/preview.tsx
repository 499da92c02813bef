import type { Decorator, Preview } from '@storybook/react-vite';
import { useLayoutEffect, type ReactNode } from 'react';
import { Provider as JotaiProvider } from 'jotai';
import { LOCALES, type Locale } from '@/domain/constants';
import { i18next, setLocale } from '@/lib/i18n';
import { Toaster } from '@/components/ui/toast';
import { TooltipProvider } from '@/components/ui/tooltip';
import '@/styles/globals.css';
import '@/styles/fonts.css';

type Theme = 'light' | 'dark' | 'wall';
const THEMES: Theme[] = ['light', 'dark', 'wall'];

function applyTheme(theme: Theme) {
  const root = document.documentElement;
  root.classList.remove('dark', 'wall');
  if (theme !== 'light') root.classList.add(theme);
}

function AppFrame({ locale, theme, children }: { locale: Locale; theme: Theme; children: ReactNode }) {
  // The theme is a class on <html>: set it during render so the first paint already has it.
  applyTheme(theme);
  // The language is i18next state: switch it in a layout effect (before paint, outside React's render).
  useLayoutEffect(() => {
    if (i18next.language !== locale || document.documentElement.lang === '') void setLocale(locale);
  }, [locale]);
  return (
    <JotaiProvider>
      <TooltipProvider>
        {children}
        <Toaster />
      </TooltipProvider>
    </JotaiProvider>
  );
}

const withApp: Decorator = (Story, context) => {
  const locale = (LOCALES as readonly string[]).includes(context.globals.locale) ? (context.globals.locale as Locale) : 'zh_cn';
  const theme = THEMES.includes(context.globals.theme) ? (context.globals.theme as Theme) : 'light';
  return (
    <AppFrame locale={locale} theme={theme}>
      <Story />
    </AppFrame>
  );
};

const preview: Preview = {
  decorators: [withApp],
  globalTypes: {
    locale: {
      description: 'Interface language',
      toolbar: {
        title: 'Locale',
        icon: 'globe',
        items: [
          { value: 'zh_cn', title: '简体中文' },
          { value: 'zh_tw', title: '繁體中文' },
          { value: 'en_us', title: 'English' },
        ],
        dynamicTitle: true,
      },
    },
    theme: {
      description: 'Theme',
      toolbar: {
        title: 'Theme',
        icon: 'mirror',
        items: [
          { value: 'light', title: 'Light' },
          { value: 'dark', title: 'Dark' },
          { value: 'wall', title: 'Wall display' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { locale: 'zh_cn', theme: 'light' },
  parameters: {
    layout: 'padded',
    // The theme paints the page background itself (bg-background on <body>).
    backgrounds: { disable: true },
    controls: { matchers: { color: /(background|color)$/i, date: /Date$/i } },
  },
  tags: ['autodocs'],
};

export default preview;
