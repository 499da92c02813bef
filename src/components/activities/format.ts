import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCEPT_LANGUAGE } from '@/domain/constants';
import { ACTIVITY_ITEMS, ACTIVITY_SOURCE_TABLE, type ActivityItemKey } from '@/domain/activities/items';
import { enumLabel } from '@/domain/presentation';
import { toLocale } from '@/domain/i18n/language';
import { formatDateTime } from '@/lib/date-time';

/** Labels and formats of activity values in the reader's language (shared by the exercise-record and contest screens). */
export function useActivityFormat() {
  const { t, i18n } = useTranslation('activities');
  const language = i18n.language;
  return useMemo(() => {
    const locale = ACCEPT_LANGUAGE[toLocale(language)];
    const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    return {
      item: (key: string) => t(`item.${key}`),
      unit: (key: string) => t(`unit.${ACTIVITY_ITEMS.get(key as ActivityItemKey)?.unit ?? 'count'}`),
      /** A value with its item's unit: "3,200 米". */
      value: (key: string, value: number) => `${number.format(value)} ${t(`unit.${ACTIVITY_ITEMS.get(key as ActivityItemKey)?.unit ?? 'count'}`)}`,
      /** An item with its unit: "跑步（米）". */
      withUnit: (key: string) => t('exerciseRecords.withUnit', { item: t(`item.${key}`), unit: t(`unit.${ACTIVITY_ITEMS.get(key as ActivityItemKey)?.unit ?? 'count'}`) }),
      number: (value: number) => number.format(value),
      dateTime: (iso: string) => formatDateTime(iso, language),
      source: (key: string) => enumLabel(ACTIVITY_SOURCE_TABLE, key, t),
      /** Names in a row: "跑步、跳绳". */
      list: (parts: readonly string[]) => parts.join(t('exerciseRecords.separator')),
    };
  }, [t, language]);
}
