import { Clock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Period, ViewScope } from '@/domain/data-center/types';
import { periodLabel } from '../format';
import { formatDateTime } from '@/lib/date-time';

/** "School · 2025-2026 autumn · plan · data as of 10:32": what the figures on screen are. */
export function ViewMeta({ scope, period, asOf }: { scope?: ViewScope; period?: Period; asOf?: string }) {
  const { t, i18n } = useTranslation('dashboard');
  const time = asOf ? formatDateTime(asOf, i18n.language, 'time') : null;
  const parts = [
    scope ? scope.orgName : null,
    period ? periodLabel(t, period.academicYear, period.semesterCode) : null,
    period?.planName ?? null,
  ].filter((p): p is string => Boolean(p));
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="view-meta">
      {parts.join(' · ')}
      {time ? (
        <span className="inline-flex items-center gap-1">
          {parts.length ? '· ' : null}
          <Clock aria-hidden className="size-3.5" />
          {t('asOf', { time })}
        </span>
      ) : null}
    </span>
  );
}
