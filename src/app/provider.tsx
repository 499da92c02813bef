import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import '@/lib/i18n';
import { useThemeClass } from '@/components/layout/use-theme-class';
import { Toaster } from '@/components/ui/toast';
import { queryClient } from '@/lib/query-client';
import { store } from '@/lib/store';

function ThemeSync() {
  useThemeClass();
  return null;
}

/** App-wide providers: the jotai store, TanStack Query, toasts, theme (tooltips: the signed-in shell). */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <ThemeSync />
        {children}
        <Toaster />
      </QueryClientProvider>
    </JotaiProvider>
  );
}
