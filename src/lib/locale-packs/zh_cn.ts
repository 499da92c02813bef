/** zh_cn's namespaces beyond the login ones, by file, in one chunk: a signed-in screen's texts in one request (src/lib/i18n.ts). */
export const files = import.meta.glob<Record<string, unknown>>(['../../../locales/zh_cn/*.json', '!../../../locales/zh_cn/{common,auth,validation,errors,ui}.json'], {
  import: 'default',
  eager: true,
});
