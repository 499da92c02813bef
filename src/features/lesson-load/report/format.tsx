import { useTranslation } from 'react-i18next';
import { missedTargets, type LoadRow } from '@/domain/lesson-load/report';
import { Badge } from '@/components/ui/badge';

/** A share (0–1) as a percentage with one decimal ('56.7%'), or '—'. */
export const percent = (v: number | null) => (v === null ? '—' : `${Math.round(v * 1000) / 10}%`);
/** A bpm figure, or '—'. */
export const bpm = (v: number | null) => (v === null ? '—' : String(v));
/** Seconds as minutes with one decimal. */
export const minutesOf = (seconds: number) => Math.round((seconds / 60) * 10) / 10;

/** The lesson's verdict: a badge (met, missed, in progress) and, when missed, which targets. */
export function VerdictBadge({ row, detailed = true }: { row: Pick<LoadRow, 'inProgress' | 'meetsTargets' | 'targets'>; detailed?: boolean }) {
  const { t } = useTranslation('lessonLoad');
  if (row.inProgress) return <Badge variant="secondary">{t('report.inProgress')}</Badge>;
  if (row.meetsTargets) return <Badge variant="success">{t('report.meets')}</Badge>;
  const missed = missedTargets(row.targets).map((n) => t(`report.target.${n}`));
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge variant="warning">{t('report.filter.meetsNo')}</Badge>
      {detailed ? <span className="text-xs text-muted-foreground">{missed.join(t('report.listSeparator'))}</span> : null}
    </span>
  );
}
