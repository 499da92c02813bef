import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import '@/styles/globals.css';
import { i18next } from '@/lib/i18n';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

const router = createAppRouter();

// The tab title follows the language until a screen sets its own.
document.title = i18next.t('common:appName');

// The bundled CJK font is a fallback behind the system ones; its large stylesheet must not hold up the first screen.
void import('@/styles/fonts.css');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
