import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Indicators } from '@/domain/data-center/types';
import { cn } from '@/lib/cn';
import { formatCount, formatRate, formatScore } from '../format';

interface Figure {
  key: string;
  label: string;
  value: string;
  hint?: ReactNode;
  tone?: 'default' | 'success' | 'primary' | 'warning' | 'destructive';
}

const TONE: Record<NonNullable<Figure['tone']>, string> = {
  default: 'text-foreground',
  success: 'text-success',
  primary: 'text-primary',
  warning: 'text-warning',
  destructive: 'text-destructive',
};

/** The headline figures of a population as one row of cards (docs/product-rules.md#data-centre). */
export function KpiCards({ indicators, className, wall = false }: { indicators: Indicators; className?: string; wall?: boolean }) {
  const { t, i18n } = useTranslation(['dashboard']);
  const locale = i18n.language.replace('_', '-');
  const figures: Figure[] = [
    {
      key: 'tested',
      label: t('figure.tested'),
      value: formatCount(indicators.tested, locale),
      hint: indicators.students !== null ? t('figure.ofStudents', { students: formatCount(indicators.students, locale) }) : undefined,
    },
    { key: 'participation', label: t('figure.participationRate'), value: formatRate(indicators.participationRate, locale), tone: 'primary' },
    { key: 'meanTotal', label: t('figure.meanTotal'), value: formatScore(indicators.meanTotal), hint: t('figure.assessedHint', { n: indicators.assessed }) },
    { key: 'excellent', label: t('figure.excellentRate'), value: formatRate(indicators.excellentRate, locale), tone: 'success', hint: t('figure.people', { n: indicators.levels.excellent }) },
    { key: 'good', label: t('figure.goodRate'), value: formatRate(indicators.goodRate, locale), tone: 'primary', hint: t('figure.people', { n: indicators.levels.excellent + indicators.levels.good }) },
    { key: 'pass', label: t('figure.passRate'), value: formatRate(indicators.passRate, locale), tone: 'warning', hint: t('figure.failing', { n: indicators.levels.fail }) },
  ];
  return (
    <dl className={cn('grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6', wall && 'gap-6', className)} data-testid="kpi-cards">
      {figures.map((f) => (
        <div
          key={f.key}
          data-testid={`kpi-${f.key}`}
          className={cn('flex flex-col gap-1 rounded-xl border bg-card px-4 py-3 shadow-sm', wall && 'gap-2 px-7 py-6')}
        >
          <dt className={cn('text-sm text-muted-foreground', wall && 'text-[26px]')}>{f.label}</dt>
          <dd className={cn('text-2xl font-semibold tabular-nums', TONE[f.tone ?? 'default'], wall && 'text-[64px] leading-none')}>{f.value}</dd>
          {f.hint ? <dd className={cn('text-xs text-muted-foreground', wall && 'text-[22px]')}>{f.hint}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
