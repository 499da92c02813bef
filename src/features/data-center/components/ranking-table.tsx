import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { RankRow } from '@/domain/data-center/types';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { formatRate, formatScore, gradeLabel } from '../format';

const col = createDataTableColumnHelper<RankRow>();
const rankKey = (r: RankRow) => r.id;

/** Classes (or schools, or a university's colleges) ranked by mean total, sortable by every figure; a row click drills into it. */
export function RankingTable({
  rows,
  unit,
  loading,
  onRowClick,
  height = 360,
}: {
  rows: readonly RankRow[];
  unit: 'class' | 'school' | 'college';
  loading?: boolean;
  onRowClick?(row: RankRow): void;
  height?: number;
}) {
  const { t } = useTranslation(['dashboard', 'physique']);
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor((r) => r.rank ?? undefined, {
          id: 'rank',
          header: t('ranking.rank'),
          enableSorting: true,
          sortUndefined: 'last',
          meta: { align: 'right', width: 72 },
          cell: ({ getValue }) => <span className="font-semibold tabular-nums">{getValue() ?? '—'}</span>,
        }),
        col.accessor('name', {
          header: t(`ranking.${unit}`),
          meta: { width: 180 },
          cell: ({ getValue }) => <span className="font-medium">{getValue()}</span>,
        }),
        ...(unit === 'class'
          ? [col.accessor('gradeNo', { header: t('ranking.grade'), meta: { width: 96 }, cell: ({ getValue }) => gradeLabel(t, getValue()) })]
          : []),
        col.accessor('tested', { header: t('figure.tested'), enableSorting: true, meta: { align: 'right', width: 88 } }),
        col.accessor((r) => r.meanTotal ?? undefined, {
          id: 'meanTotal',
          header: t('figure.meanTotal'),
          enableSorting: true,
          sortUndefined: 'last',
          meta: { align: 'right', width: 96 },
          cell: ({ getValue }) => formatScore(getValue()),
        }),
        col.accessor((r) => r.excellentRate ?? undefined, {
          id: 'excellentRate',
          header: t('figure.excellentRate'),
          enableSorting: true,
          sortUndefined: 'last',
          meta: { align: 'right', width: 96 },
          cell: ({ getValue }) => formatRate(getValue()),
        }),
        col.accessor((r) => r.goodRate ?? undefined, {
          id: 'goodRate',
          header: t('figure.goodRate'),
          enableSorting: true,
          sortUndefined: 'last',
          meta: { align: 'right', width: 96 },
          cell: ({ getValue }) => formatRate(getValue()),
        }),
        col.accessor((r) => r.passRate ?? undefined, {
          id: 'passRate',
          header: t('figure.passRate'),
          enableSorting: true,
          sortUndefined: 'last',
          meta: { align: 'right', width: 96 },
          cell: ({ getValue }) => formatRate(getValue()),
        }),
      ]),
    [t, unit],
  );
  return (
    <DataTable
      aria-label={t('ranking.title')}
      columns={columns}
      data={rows}
      rowKey={rankKey}
      loading={loading}
      height={height}
      onRowClick={onRowClick}
      phone={{ mode: 'scroll' }}
    />
  );
}
