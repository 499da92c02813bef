import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatList } from '@/domain/i18n/list';

/** `formatList` in the interface's language: names shown as one list ('1分钟跳绳、1分钟仰卧起坐'). */
export function useListFormat(): (items: readonly string[]) => string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useCallback((items: readonly string[]) => formatList(items, language), [language]);
}
