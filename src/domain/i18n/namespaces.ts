/**
 * What the login screen shows: loaded before the first paint, so no text shows as its key (src/lib/i18n.ts). Those of the
 * default language are part of the entry chunk; a language's other namespaces are one file (src/lib/locale-packs/).
 */
export const LOGIN_NAMESPACES: readonly string[] = ['common', 'auth', 'validation', 'errors', 'ui'];
