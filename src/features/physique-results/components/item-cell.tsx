import { useTranslation } from 'react-i18next';
import type { ItemResult } from '@/domain/physique-results/types';
import type { ItemKey } from '@/domain/physique/standard';
import { cn } from '@/lib/cn';
import { showRaw, showScore } from '../format';

const LEVEL_TONE: Record<string, string> = {
  excellent: 'text-success',
  good: 'text-primary',
  pass: 'text-muted-foreground',
  fail: 'text-destructive',
  normal: 'text-success',
  lowWeight: 'text-warning',
  overweight: 'text-warning',
  obese: 'text-destructive',
};

/** Text colour of a level (total or item; BMI bands too). */
export function levelTone(level: string | null | undefined): string {
  return level ? (LEVEL_TONE[level] ?? '') : '';
}

/** One item of a result in a table cell: the raw value, then score and level (and bonus) below it. */
export function ItemCell({ item, result, invalid }: { item: ItemKey; result: ItemResult | undefined; invalid?: boolean }) {
  const { t } = useTranslation(['physique', 'physiqueResultsUi']);
  if (!result || result.raw === null) return <span className="text-muted-foreground">—</span>;
  const level = result.level ? t(item === 'bmi' ? `physique:bmiLevel.${result.level}` : `physique:level.${result.level}`) : '';
  return (
    <span className={cn('flex flex-col leading-tight whitespace-nowrap', invalid && 'text-muted-foreground line-through')} data-item={item}>
      <span className="font-medium tabular-nums">{showRaw(item, result.raw)}</span>
      <span className="text-xs text-muted-foreground tabular-nums">
        {t('physiqueResultsUi:cell.score', { score: showScore(result.score) })}
        {level ? <span className={cn('ml-1', !invalid && levelTone(result.level))}>{level}</span> : null}
        {result.bonus ? <span className="ml-1 text-success">{t('physiqueResultsUi:cell.bonus', { bonus: result.bonus })}</span> : null}
      </span>
    </span>
  );
}
