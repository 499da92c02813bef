import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Figures in the reader's language: shares as percentages with one decimal, counts grouped, means with one decimal;
 * '—' for a figure there is none of (no tested students, no lessons).
 */
export function useFigureFormats() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const locale = i18n.language.replace('_', '-');
    const pct = new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const int = new Intl.NumberFormat(locale);
    return {
      share: (v: number | null) => (v == null ? '—' : pct.format(v)),
      count: (v: number) => int.format(v),
      oneDecimal: (v: number | null) => (v == null ? '—' : v.toFixed(1)),
    };
  }, [i18n.language]);
}
