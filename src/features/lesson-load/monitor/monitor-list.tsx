import { useMemo } from 'react';
import { TriangleAlert, Watch } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { monitorListQuery, type MonitorRow } from '@/domain/lesson-load/monitor';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen } from '@/components/list/list-screen';
import type { PageActions } from '@/components/list/page-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { useDateTime } from '@/lib/date-time';
import { monitorResource, type MonitorFamily } from './api';
import { BandsDialog } from './bands-dialog';

const col = createDataTableColumnHelper<MonitorRow>();

/** class/monitor: today's lessons in progress of the classes the user may see; lend bands (edit), open the live view. */
export function MonitorListScreen({ family }: { family: MonitorFamily }) {
  const { t } = useTranslation('lessonLoad');
  const key = `${family}.class.monitor`;
  const access = usePageAccess(key);
  const api = monitorResource(family);
  const state = useListState<Record<string, never>>([]);
  const query = api.useList(state.query);
  const dateTime = useDateTime();
  const liveOf = (id: string) => access.paths.route('live', id);

  const actions: PageActions<MonitorRow> = {
    bands: { button: 'edit', label: t('bands.lend'), icon: <Watch aria-hidden />, dialog: (p) => <BandsDialog family={family} {...p} /> },
  };
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('className', {
          header: t('monitor.className'),
          cell: ({ row, getValue }) => (
            <Link className="text-primary font-medium whitespace-nowrap hover:underline" to={liveOf(row.original.id)} data-testid="monitor-lesson">
              {getValue()}
            </Link>
          ),
        }),
        col.accessor('teacherName', { header: t('monitor.teacher'), cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> }),
        col.accessor('venueName', { header: t('monitor.venue'), cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue()}</span> }),
        col.accessor('startedAt', { header: t('monitor.startedAt'), meta: { className: 'whitespace-nowrap' }, cell: ({ getValue }) => <span className="tabular-nums">{dateTime(getValue())}</span> }),
        col.accessor('studentCount', { header: t('monitor.students'), meta: { align: 'right' } }),
        col.accessor('bandCount', { header: t('monitor.bands'), meta: { align: 'right' } }),
        col.accessor('openAlerts', {
          header: t('monitor.openAlerts'),
          meta: { align: 'right' },
          cell: ({ getValue }) =>
            getValue() > 0 ? (
              <span className="text-destructive inline-flex items-center gap-1 font-semibold">
                <TriangleAlert className="size-4" aria-hidden />
                {getValue()}
              </span>
            ) : (
              0
            ),
        }),
      ]),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- liveOf follows access.paths
    [t, dateTime, access.paths],
  );
  return (
    <ListScreen
      pageKey={key}
      state={state}
      querySchema={monitorListQuery}
      filters={[]}
      query={query}
      columns={columns}
      rowKey="id"
      actions={actions}
      rowButtons={['bands']}
      data-testid="monitor-list"
    />
  );
}
