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

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
