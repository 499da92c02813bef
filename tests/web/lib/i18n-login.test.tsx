import { readFileSync } from 'node:fs';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import { Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '@/domain/constants';
import { LoginScreen } from '@/features/auth/components/login-screen';
import { allNamespaces, createI18n, LOGIN_NAMESPACES } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { store } from '@/lib/store';
import { fakeApi, resetApp } from '../app/fake-api';

const auth = (lng: Locale) => JSON.parse(readFileSync(`locales/${lng}/auth.json`, 'utf8')) as { login: Record<string, string> };

/** Texts and labels a person sees or hears on the page. */
function visibleTexts(root: HTMLElement): string[] {
  const attrs = [...root.querySelectorAll('[placeholder], [aria-label], [alt], [title]')].flatMap((el) =>
    ['placeholder', 'aria-label', 'alt', 'title'].map((a) => el.getAttribute(a) ?? ''),
  );
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node.textContent ?? '');
  return [...texts, ...attrs].map((t) => t.trim()).filter(Boolean);
}

// An i18n key shown instead of its text: 'login.welcome', 'auth:login.welcome', 'language.label' …
const KEY = /^([a-zA-Z]+:)?[a-zA-Z]+(\.[a-zA-Z0-9]+)+$/;

beforeEach(() => resetApp());

describe('the login screen loads only its own texts', () => {
  it.each(LOCALES)('renders translated in %s from the login namespaces alone', async (lng) => {
    fakeApi({});
    // A fresh instance, as the app starts: only the login namespaces of the language (and its fallbacks) are loaded.
    const i18n = await createI18n(lng);
    const router = createMemoryRouter([{ path: '/', element: <LoginScreen /> }]);
    const { container } = render(
      <JotaiProvider store={store}>
        <QueryClientProvider client={queryClient}>
          <I18nextProvider i18n={i18n}>
            <Suspense fallback={<p>loading</p>}>
              <RouterProvider router={router} />
            </Suspense>
          </I18nextProvider>
        </QueryClientProvider>
      </JotaiProvider>,
    );

    const texts = auth(lng).login;
    // Translated at the first paint: nothing waited for, no loading fallback.
    expect(screen.getByRole('heading', { name: texts.welcome })).toBeInTheDocument();
    expect(screen.getByTestId('login-submit')).toHaveTextContent(texts.submit);
    expect(screen.getByTestId('login-username')).toHaveAttribute('placeholder', texts.usernamePlaceholder);
    expect(visibleTexts(container).filter((t) => KEY.test(t))).toEqual([]);

    // zh_cn is the source and needs no fallback; zh_tw falls back to zh_cn, en_us to zh_tw then zh_cn.
    const languages = { zh_cn: ['zh_cn'], zh_tw: ['zh_cn', 'zh_tw'], en_us: ['en_us', 'zh_cn', 'zh_tw'] }[lng];
    const data = i18n.store.data as Record<string, Record<string, unknown>>;
    expect(Object.keys(data).sort()).toEqual(languages);
    for (const l of languages) expect(Object.keys(data[l]).sort()).toEqual([...LOGIN_NAMESPACES].sort());
    expect((await allNamespaces()).length).toBeGreaterThan(LOGIN_NAMESPACES.length);
  });
});
