import type { Locale } from '../constants';

/**
 * The custom name in `locale`, then in the other languages' fallbacks (zh_tw → zh_cn), else undefined. Apart from
 * customize.ts so the signed-in shell, which names every menu entry through it, does not build menu management's zod
 * schemas as it loads (docs/decisions/012-lean-first-screen.md).
 */
export function customName(names: Partial<Record<Locale, string>> | null | undefined, locale: Locale): string | undefined {
  if (!names) return undefined;
  if (names[locale]) return names[locale];
  if (locale === 'zh_tw' && names.zh_cn) return names.zh_cn;
  return undefined;
}
