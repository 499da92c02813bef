import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import '@/styles/globals.css';
import { i18nReady } from '@/lib/i18n';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

// The bundled CJK font is a fallback behind the system ones; its large stylesheet must not hold up the first screen.
void import('@/styles/fonts.css');

// The first paint waits for the login screen's texts in the stored language (a few kB), so no key ever shows.
const i18n = await i18nReady;
const router = createAppRouter();

// The tab title follows the language until a screen sets its own.
document.title = i18n.t('common:appName');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      {/* A screen using a namespace not loaded yet waits here (or in its own lazy boundary) rather than showing keys. */}
      <Suspense>
        <RouterProvider router={router} />
      </Suspense>
    </AppProvider>
  </StrictMode>,
);
