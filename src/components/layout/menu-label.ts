import type { TFunction } from 'i18next';

/** A menu entry's name in the current language, falling back to the stored zh_cn name. */
export function menuLabel(t: TFunction, entry: { i18nKey?: string; menuName?: string; name?: string }): string {
  const fallback = entry.menuName ?? entry.name ?? '';
  if (!entry.i18nKey) return fallback;
  return t(`menu:${entry.i18nKey}`, { defaultValue: fallback });
}
