import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

// One formatter per locale and kind: a table formats a figure per cell, and making an Intl.NumberFormat costs far more
// than formatting with one (the school view's first render made ≈ 100; docs/decisions/012-lean-first-screen.md).
const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, kind: 'rate' | 'count'): Intl.NumberFormat {
  const key = `${kind} ${locale}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.NumberFormat(locale, kind === 'rate' ? { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 } : undefined)));
  return format;
}

/** Shares as percentages with one decimal ('12.3%') in `locale` (a BCP 47 tag: zh-CN). */
export const rateFormat = (locale: string) => numberFormat(locale, 'rate');

/** Whole counts with the locale's grouping. */
export const countFormat = (locale: string) => numberFormat(locale, 'count');

/**
 * Figures in the reader's language: shares as percentages with one decimal, counts grouped, means with one decimal;
 * '—' for a figure there is none of (no tested students, no lessons).
 */
export function useFigureFormats() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const locale = i18n.language.replace('_', '-');
    const pct = rateFormat(locale);
    const int = countFormat(locale);
    return {
      share: (v: number | null) => (v == null ? '—' : pct.format(v)),
      count: (v: number) => int.format(v),
      oneDecimal: (v: number | null) => (v == null ? '—' : v.toFixed(1)),
    };
  }, [i18n.language]);
}
