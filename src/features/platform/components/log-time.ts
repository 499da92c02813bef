import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ORG_TIME_ZONE } from '@/domain/dates';

/** A time in the reader's language and the organisations' time zone, seconds included (a log orders by them). */
export function useLogTime() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(i18n.language.replace('_', '-'), { dateStyle: 'short', timeStyle: 'medium', timeZone: ORG_TIME_ZONE });
    return (iso: string) => format.format(new Date(iso));
  }, [i18n.language]);
}
