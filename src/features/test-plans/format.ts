import { ACCEPT_LANGUAGE } from '@/domain/constants';
import { toLocale } from '@/domain/i18n/language';

/** An ISO instant as a date and time in the reader's language (zh-CN, zh-TW, en-US). */
export function showDateTime(iso: string, language: string, timeOnly = false): string {
  const options: Intl.DateTimeFormatOptions = timeOnly ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' };
  return new Intl.DateTimeFormat(ACCEPT_LANGUAGE[toLocale(language)], options).format(new Date(iso));
}
