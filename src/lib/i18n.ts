import i18next, { type BackendModule, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ACCEPT_LANGUAGE, DEFAULT_LOCALE, LOCALES, type Locale } from '@/domain/constants';
import { FALLBACK_LOCALES, toLocale } from '@/domain/i18n/language';
import { LOGIN_NAMESPACES } from '@/domain/i18n/namespaces';

const LANGUAGE_KEY = 'tiyu.language';

// The source language's login namespaces (LOGIN_NAMESPACES; a glob pattern must be a literal) are in the entry chunk:
// every language falls back to them, and as lazy files they were five more requests before the first paint, each with
// its response headers. Another language's login namespaces are a small lazy chunk each, so its login page loads only
// those. A language's other namespaces come in one chunk (src/lib/locale-packs/): a signed-in screen loads them all,
// and one chunk per namespace was ~50 requests queued on HTTP/1.1's six connections (docs/performance.md, first load).
const bundled = import.meta.glob<Record<string, unknown>>('../../locales/zh_cn/{common,auth,validation,errors,ui}.json', { import: 'default', eager: true });
const loginFiles = import.meta.glob<Record<string, unknown>>(['../../locales/*/{common,auth,validation,errors,ui}.json', '!../../locales/zh_cn/*.json'], {
  import: 'default',
});
const packs = import.meta.glob<Record<string, Record<string, unknown>>>('./locale-packs/*.ts', { import: 'files' });
const files: Record<string, () => Promise<Record<string, unknown>>> = {
  ...loginFiles,
  ...Object.fromEntries(Object.entries(bundled).map(([path, data]) => [path, () => Promise.resolve(data)])),
};
const fileOf = (lng: string, ns: string) => `../../locales/${lng}/${ns}.json`;

const loadedPacks = new Map<string, Promise<Record<string, Record<string, unknown>>>>();
/** A language's namespaces beyond the login ones, by name (one chunk, loaded once). */
function loadPack(lng: string): Promise<Record<string, Record<string, unknown>>> {
  let pack = loadedPacks.get(lng);
  if (!pack) {
    const load = packs[`./locale-packs/${lng}.ts`];
    pack = load
      ? load().then((byFile) => Object.fromEntries(Object.entries(byFile).map(([path, data]) => [/([^/]+)\.json$/.exec(path)![1], data])))
      : Promise.resolve({});
    // A failed chunk load is tried again on the next read.
    pack.catch(() => loadedPacks.delete(lng));
    loadedPacks.set(lng, pack);
  }
  return pack;
}

/** Every namespace there is (the source language's login namespaces and its pack's). */
export async function allNamespaces(): Promise<string[]> {
  return [...LOGIN_NAMESPACES, ...Object.keys(await loadPack(DEFAULT_LOCALE))].sort();
}

export { LOGIN_NAMESPACES };

const backend: BackendModule = {
  type: 'backend',
  init() {},
  read(lng, ns, callback) {
    const load = LOGIN_NAMESPACES.includes(ns) ? files[fileOf(lng, ns)] : () => loadPack(lng).then((pack) => pack[ns] ?? {});
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (data) => callback(null, data),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * Where a missing key is looked up next, in FALLBACK_LOCALES order. zh_cn is the source and has every key (the i18n
 * tests check parity), so it needs no fallback and a zh_cn screen loads one language only; zh_tw falls back to zh_cn,
 * en_us to zh_tw then zh_cn.
 */
export function fallbacksOf(code: string): string[] {
  return code === DEFAULT_LOCALE ? [] : FALLBACK_LOCALES.filter((l) => l !== code);
}

/** A browser i18next instance that loads namespaces on demand; resolves once `ns` of `lng` (and its fallbacks) are in. */
export async function createI18n(lng: Locale, ns: readonly string[] = LOGIN_NAMESPACES, instance: i18n = i18next.createInstance()): Promise<i18n> {
  await instance
    .use(backend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: fallbacksOf,
      supportedLngs: [...LOCALES],
      load: 'currentOnly',
      ns: [...ns],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  return instance;
}

export function storedLocale(): Locale {
  try {
    return toLocale(localStorage.getItem(LANGUAGE_KEY) ?? DEFAULT_LOCALE);
  } catch {
    return DEFAULT_LOCALE;
  }
}

/** The app's instance: ready (login namespaces of the stored language loaded) when this resolves. */
export const i18nReady: Promise<i18n> = createI18n(storedLocale(), LOGIN_NAMESPACES, i18next);

if (typeof document !== 'undefined') document.documentElement.lang = ACCEPT_LANGUAGE[storedLocale()];

/** Loads every namespace of the current language (the signed-in screens use many, some by 'ns:key' only). */
export async function loadAllNamespaces(): Promise<void> {
  await i18nReady;
  await i18next.loadNamespaces(await allNamespaces());
}

export function currentLocale(): Locale {
  return toLocale(i18next.language);
}

export function acceptLanguage(): string {
  return ACCEPT_LANGUAGE[currentLocale()];
}

/** Switches the language once every namespace in use is loaded in it, so the screen never shows keys. */
export async function setLocale(locale: Locale): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_KEY, locale);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  document.documentElement.lang = ACCEPT_LANGUAGE[locale];
  await i18nReady;
  await i18next.changeLanguage(locale);
}

export { i18next };
