/**
 * What the login screen shows: loaded before the first paint, so no text shows as its key (src/lib/i18n.ts). Those of the
 * default language are part of the entry chunk; the build puts a language's other namespaces in one file (vite.config.ts).
 */
export const LOGIN_NAMESPACES: readonly string[] = ['common', 'auth', 'validation', 'errors', 'ui'];
