import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import '@/lib/i18n';
import { useThemeClass } from '@/components/layout/theme-toggle';
import { Toaster } from '@/components/ui/toast';
import { TooltipProvider } from '@/components/ui/tooltip';
import { queryClient } from '@/lib/query-client';
import { store } from '@/lib/store';

function ThemeSync() {
  useThemeClass();
  return null;
}

/** App-wide providers: the jotai store, TanStack Query, tooltips, toasts, theme. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <TooltipProvider>
          <ThemeSync />
          {children}
          <Toaster />
        </TooltipProvider>
      </QueryClientProvider>
    </JotaiProvider>
  );
}
