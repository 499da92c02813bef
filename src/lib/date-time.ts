import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCEPT_LANGUAGE } from '@/domain/constants';
import { ORG_TIME_ZONE } from '@/domain/dates';
import { toLocale } from '@/domain/i18n/language';

/** How much of an instant a screen shows: a list cell, a detail line, a log line (a log orders by seconds), a time of day. */
export type DateTimeStyle = 'short' | 'medium' | 'seconds' | 'time';

const OPTIONS: Record<DateTimeStyle, Intl.DateTimeFormatOptions> = {
  short: { dateStyle: 'short', timeStyle: 'short' },
  medium: { dateStyle: 'medium', timeStyle: 'short' },
  seconds: { dateStyle: 'short', timeStyle: 'medium' },
  time: { timeStyle: 'short' },
};

const formats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(language: string, style: DateTimeStyle): Intl.DateTimeFormat {
  const locale = ACCEPT_LANGUAGE[toLocale(language)];
  const key = `${locale} ${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...OPTIONS[style], timeZone: ORG_TIME_ZONE });
    formats.set(key, format);
  }
  return format;
}

/**
 * An ISO instant as the organisations' wall clock (China time, wherever the browser is) in the reader's language
 * (zh-CN, zh-TW, en-US).
 */
export function formatDateTime(iso: string, language: string, style: DateTimeStyle = 'short'): string {
  return dateTimeFormat(language, style).format(new Date(iso));
}

/** `formatDateTime` in the current language, for a component: follows a language switch. */
export function useDateTime(style: DateTimeStyle = 'short'): (iso: string) => string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => {
    const format = dateTimeFormat(language, style);
    return (iso: string) => format.format(new Date(iso));
  }, [language, style]);
}
