import { useMemo } from 'react';
import { BarChart3, Eye } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { loadListQuery, type LoadRow } from '@/domain/lesson-load/report';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import type { RowAction } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Button } from '@/components/ui/button';
import { useDateTime } from '@/lib/date-time';
import { loadKey, loadResource, useLoadOptions, type LoadFamily } from './api';
import { bpm, percent, VerdictBadge } from './format';

type Filters = { classId?: string; teacherId?: string; from?: string; to?: string; meets?: string };
const col = createDataTableColumnHelper<LoadRow>();

/**
 * class/load (docs/product-rules.md#lesson-load, "Reports"): the lessons with heart-rate data in the user's data scope,
 * newest first, with their figures against the curriculum targets; a lesson's report opens from its row.
 */
export function LoadListScreen({ family }: { family: LoadFamily }) {
  const { t } = useTranslation('lessonLoad');
  const navigate = useNavigate();
  const key = loadKey(family);
  const access = usePageAccess(key);
  const api = loadResource(family);
  const state = useListState<Filters>(['classId', 'teacherId', 'from', 'to', 'meets']);
  const query = api.useList(state.query);
  const options = useLoadOptions(family).data;
  const dateTime = useDateTime();

  const filters: FilterDef<Filters>[] = [
    { name: 'classId', type: 'select', label: t('report.filter.class'), className: 'w-48', options: (options?.classes ?? []).map((c) => ({ value: c.id, label: c.name })) },
    { name: 'teacherId', type: 'select', label: t('report.filter.teacher'), className: 'w-36', options: (options?.teachers ?? []).map((c) => ({ value: c.id, label: c.name })) },
    { name: 'from', type: 'date', label: t('report.filter.from'), before: 'to' },
    { name: 'to', type: 'date', label: t('report.filter.to'), after: 'from' },
    {
      name: 'meets',
      type: 'select',
      label: t('report.filter.meets'),
      className: 'w-32',
      options: [
        { value: 'true', label: t('report.filter.meetsYes') },
        { value: 'false', label: t('report.filter.meetsNo') },
      ],
    },
  ];
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('startedAt', { header: t('report.column.startedAt'), cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{dateTime(getValue())}</span> }),
        col.accessor('className', {
          header: t('report.column.className'),
          // A long class name wraps within a readable width instead of squeezing into a column of single characters.
          cell: ({ getValue }) => <span className="block min-w-36 max-w-60 font-medium">{getValue()}</span>,
        }),
        col.accessor('teacherName', { header: t('report.column.teacher'), cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue() ?? '—'}</span> }),
        col.display({ id: 'meets', header: t('report.column.meets'), cell: ({ row }) => <span className="block min-w-40"><VerdictBadge row={row.original} /></span> }),
        col.accessor('minutes', { header: t('report.column.minutes'), meta: { align: 'right' } }),
        col.accessor('studentCount', { header: t('report.column.studentCount'), meta: { align: 'right' } }),
        col.accessor('mainMeanBpm', { header: t('report.column.mainMeanBpm'), meta: { align: 'right' }, cell: ({ getValue }) => bpm(getValue()) }),
        col.accessor('groupDensity', { header: t('report.column.groupDensity'), meta: { align: 'right' }, cell: ({ getValue }) => percent(getValue()) }),
        col.accessor('individualDensity', { header: t('report.column.individualDensity'), meta: { align: 'right' }, cell: ({ getValue }) => percent(getValue()) }),
        col.accessor('targetShare', { header: t('report.column.targetShare'), meta: { align: 'right' }, cell: ({ getValue }) => percent(getValue()) }),
      ]),
    [t, dateTime],
  );
  const rowButtons = useMemo<RowAction<LoadRow>[]>(
    () => [{ action: 'detail', icon: <Eye aria-hidden />, label: t('report.open'), onClick: (r) => void navigate(access.paths.route('lesson', r.id)), testId: 'load-open' }],
    [t, navigate, access.paths],
  );
  return (
    <ListScreen
      pageKey={key}
      description={
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span>{t('report.listHint')}</span>
          <Button asChild variant="link" size="sm" className="h-auto p-0" data-testid="load-summary-link">
            <Link to={access.paths.route('summary', '')}>
              <BarChart3 aria-hidden />
              {t('report.summaryLink')}
            </Link>
          </Button>
        </span>
      }
      state={state}
      querySchema={loadListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onExport={(f) => api.exportList(f)}
      rowButtons={rowButtons}
      data-testid="load-list"
    />
  );
}
