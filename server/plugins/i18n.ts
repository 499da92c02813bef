import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import i18next, { type i18n, type TFunction } from 'i18next';
import { DEFAULT_LOCALE, type Locale } from '@/domain/constants';
import { FALLBACK_LOCALES, toLocale } from '@/domain/i18n/language';

declare module 'fastify' {
  interface FastifyInstance {
    i18n: i18n;
  }
  interface FastifyRequest {
    locale: Locale;
    /** Translates an 'ns:key' into the request's language (accept-language). */
    t: TFunction;
  }
}

// Two folders up is the project from here (server/plugins) and from the built server (dist/server, scripts/build-server.ts).
const LOCALES_DIR = fileURLToPath(new URL('../../locales', import.meta.url));

type Resources = Record<string, Record<string, Record<string, unknown>>>;

/** Reads every locales/<lng>/<ns>.json once at start: the same files the browser bundles. */
export function loadLocales(dir = LOCALES_DIR): Resources {
  const resources: Resources = {};
  for (const lng of readdirSync(dir, { withFileTypes: true })) {
    if (!lng.isDirectory()) continue;
    for (const file of readdirSync(join(dir, lng.name))) {
      if (!file.endsWith('.json')) continue;
      (resources[lng.name] ??= {})[file.slice(0, -5)] = JSON.parse(readFileSync(join(dir, lng.name, file), 'utf8')) as Record<string, unknown>;
    }
  }
  return resources;
}

export function createI18n(resources: Resources = loadLocales()): i18n {
  const instance = i18next.createInstance();
  // Resources are in memory, so initialisation completes synchronously.
  void instance.init({
    resources,
    lng: DEFAULT_LOCALE,
    fallbackLng: FALLBACK_LOCALES,
    ns: Object.keys(resources[DEFAULT_LOCALE] ?? {}),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

/** Sets `request.locale` and `request.t` from the accept-language header (docs/product-rules.md#calls). */
export const i18nPlugin = fp(
  async (app) => {
    const instance = createI18n();
    const fixed = new Map<Locale, TFunction>();
    const tFor = (locale: Locale) => {
      let t = fixed.get(locale);
      if (!t) fixed.set(locale, (t = instance.getFixedT(locale)));
      return t;
    };
    app.decorate('i18n', instance);
    app.decorateRequest('locale', DEFAULT_LOCALE);
    app.decorateRequest('t', null as unknown as TFunction);
    app.addHook('onRequest', async (request) => {
      request.locale = toLocale(request.headers['accept-language']);
      request.t = tFor(request.locale);
    });
  },
  { name: 'tiyu-i18n' },
);
