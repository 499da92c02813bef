import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

// One formatter per locale and kind: a table formats a figure per cell, and making an Intl.NumberFormat costs far more
// than formatting with one (the school view's first render made ≈ 100; docs/decisions/012-lean-first-screen.md).
const rateFormats = new Map<string, Intl.NumberFormat>();
const countFormats = new Map<string, Intl.NumberFormat>();

/** Shares as percentages with one decimal ('12.3%') in `locale` (a BCP 47 tag: zh-CN). */
export function rateFormat(locale: string): Intl.NumberFormat {
  let format = rateFormats.get(locale);
  if (!format) rateFormats.set(locale, (format = new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 })));
  return format;
}

/** Whole counts with the locale's grouping. */
export function countFormat(locale: string): Intl.NumberFormat {
  let format = countFormats.get(locale);
  if (!format) countFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format;
}

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
