import { useTranslation } from 'react-i18next';
import type { ScoreSummary as Summary } from '@/domain/physique-results/types';
import { SCORE_LEVELS } from '@/domain/physique/level';
import { cn } from '@/lib/cn';
import { levelTone } from './item-cell';

/** Aggregates of the filter (invalid results never count, docs/product-rules.md#score-validity): matched, valid, complete, mean total, levels. */
export function ScoreSummary({ summary }: { summary: Summary | undefined }) {
  const { t } = useTranslation(['physiqueResultsUi', 'physique']);
  if (!summary) return null;
  const tiles = [
    { key: 'matched', label: t('summary.matched'), value: summary.matched },
    { key: 'valid', label: t('summary.valid'), value: summary.valid },
    { key: 'complete', label: t('summary.complete'), value: summary.complete },
    { key: 'average', label: t('summary.average'), value: summary.averageTotal ?? '—' },
  ];
  const rate = (n: number) => (summary.complete === 0 ? 0 : Math.round((n / summary.complete) * 1000) / 10);
  return (
    <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-8" data-testid="score-summary">
      {tiles.map((tile) => (
        <div key={tile.key} className="rounded-md border bg-muted/40 px-3 py-2">
          <div className="text-xs text-muted-foreground">{tile.label}</div>
          <div className="text-xl font-semibold tabular-nums">{tile.value}</div>
        </div>
      ))}
      {SCORE_LEVELS.map((level) => (
        <div key={level} className="rounded-md border px-3 py-2">
          <div className="text-xs text-muted-foreground">{t(`physique:level.${level}`)}</div>
          <div className={cn('text-xl font-semibold tabular-nums', levelTone(level))}>
            {summary.levels[level]}
            <span className="ml-1.5 text-xs font-normal text-muted-foreground">{rate(summary.levels[level])}%</span>
          </div>
        </div>
      ))}
    </div>
  );
}
