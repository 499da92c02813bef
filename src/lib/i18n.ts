import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ACCEPT_LANGUAGE, DEFAULT_LOCALE, type Locale } from '@/domain/constants';
import { FALLBACK_LOCALES, toLocale } from '@/domain/i18n/language';

const LANGUAGE_KEY = 'tiyu.language';

// Every namespace of every locale is bundled: the JSON is small and this keeps language switches instant.
const files = import.meta.glob<Record<string, unknown>>('../../locales/*/*.json', { eager: true, import: 'default' });
const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, json] of Object.entries(files)) {
  const [, lng, ns] = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path)!;
  (resources[lng] ??= {})[ns] = json;
}

export function storedLocale(): Locale {
  try {
    return toLocale(localStorage.getItem(LANGUAGE_KEY) ?? DEFAULT_LOCALE);
  } catch {
    return DEFAULT_LOCALE;
  }
}

void i18next.use(initReactI18next).init({
  resources,
  lng: storedLocale(),
  fallbackLng: FALLBACK_LOCALES,
  ns: Object.keys(resources[DEFAULT_LOCALE] ?? {}),
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
});

if (typeof document !== 'undefined') document.documentElement.lang = ACCEPT_LANGUAGE[storedLocale()];

export function currentLocale(): Locale {
  return toLocale(i18next.language);
}

export function acceptLanguage(): string {
  return ACCEPT_LANGUAGE[currentLocale()];
}

export async function setLocale(locale: Locale): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_KEY, locale);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  document.documentElement.lang = ACCEPT_LANGUAGE[locale];
  await i18next.changeLanguage(locale);
}

export { i18next };
