import { useMemo } from 'react';
import { Send, Undo2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Family } from '@/domain/menus/access';
import type { PlanRow } from '@/domain/test-plans/types';
import { Badge } from '@/components/ui/badge';
import { createDataTableColumnHelper, type DataTableColumns } from '@/components/data-table/data-table';
import type { RowAction } from '@/components/list/row-actions';
import { useDateTime } from '@/lib/date-time';
import { toast } from '@/lib/toast';
import { useReleaseMutations, useReleasesQuery } from '../release-api';

const col = createDataTableColumnHelper<PlanRow>();

/**
 * What the test plan list gains for reports parents read (docs/product-rules.md#physique-year, "Reports parents
 * read"): a column saying whether a plan's reports are released (who, when), and the release / withdraw row actions of
 * the catalogue's `release` button, on ended plans. src/app composes it into the list (features do not import each other).
 */
export function useReleaseExtension(family: Family): { columns: DataTableColumns<PlanRow>; actions: RowAction<PlanRow>[] } {
  const { t } = useTranslation('parentReports');
  const dateTime = useDateTime('medium');
  const releases = useReleasesQuery(family);
  const { release, withdraw } = useReleaseMutations(family);
  const byPlan = useMemo(() => new Map((releases.data ?? []).map((r) => [r.planId, r])), [releases.data]);
  return useMemo(() => {
    const columns = col.columns([
      col.display({
        id: 'release',
        header: t('release.column'),
        cell: ({ row }) => {
          const r = byPlan.get(row.original.id);
          if (!r) return <span className="text-muted-foreground">{t('release.notReleased')}</span>;
          return (
            <span className="flex flex-col gap-0.5" data-testid="plan-released">
              <Badge variant="success" className="w-fit">
                {t('release.released')}
              </Badge>
              <span className="whitespace-nowrap text-xs text-muted-foreground">{t('release.releasedBy', { who: r.releasedBy ?? '', at: dateTime(r.releasedAt) })}</span>
            </span>
          );
        },
      }),
    ]);
    const actions: RowAction<PlanRow>[] = [
      {
        action: 'release',
        label: t('release.release'),
        icon: <Send aria-hidden />,
        hidden: (p) => p.status !== 'ended' || byPlan.has(p.id),
        destructive: false,
        confirm: (p) => ({ title: t('release.releaseTitle', { name: p.name }), description: t('release.releaseText') }),
        done: false,
        onClick: async (p) => {
          const r = await release.mutateAsync(p.id);
          toast.success(t('release.releasedToast', { count: r.notified ?? 0 }));
        },
        testId: 'plan-release',
      },
      {
        action: 'release',
        label: t('release.withdraw'),
        icon: <Undo2 aria-hidden />,
        hidden: (p) => !byPlan.has(p.id),
        destructive: true,
        confirm: (p) => ({ title: t('release.withdrawTitle', { name: p.name }), description: t('release.withdrawText') }),
        done: 'parentReports:release.withdrawnToast',
        onClick: async (p) => void (await withdraw.mutateAsync(p.id)),
        testId: 'plan-withdraw',
      },
    ];
    return { columns, actions };
  }, [t, dateTime, byPlan, release, withdraw]);
}
