import type { TFunction } from 'i18next';
import type { Locale } from '@/domain/constants';
import { customName } from '@/domain/menus/custom-name';
import { currentLocale } from '@/lib/i18n';

/**
 * A menu entry's name in the current language: a platform operator's name (docs/product-rules.md#menu-management),
 * else the catalogue's translation, else the stored zh_cn name.
 */
export function menuLabel(t: TFunction, entry: { i18nKey?: string; menuName?: string; name?: string; names?: Partial<Record<Locale, string>> }): string {
  const custom = customName(entry.names, currentLocale());
  if (custom) return custom;
  const fallback = entry.menuName ?? entry.name ?? '';
  if (!entry.i18nKey) return fallback;
  return t(`menus:${entry.i18nKey}`, { defaultValue: fallback });
}
