import { useMemo } from 'react';
import { Eye, Square } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { homeworkListQuery, type HomeworkRow } from '@/domain/homework/homework';
import { enumOptions } from '@/domain/presentation';
import { TASK_STATUS_TABLE } from '@/domain/test-plans/status';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { homework, homeworkKey, useEndHomework, type HomeworkFamily } from './api';
import { TaskStatusBadge, useItemLabels } from '../../components/activities/task-items-field';

type Filters = { name?: string; status?: string; review?: string };
const col = createDataTableColumnHelper<HomeworkRow>();

/** sportsHomework/homeworkManagement: the school's homework (k12) or its schools' homework (admin), with status and completion. */
export function HomeworkListScreen({ family }: { family: HomeworkFamily }) {
  const { t } = useTranslation('homework');
  const navigate = useNavigate();
  const key = homeworkKey(family);
  const access = usePageAccess(key);
  const api = homework(family);
  const labels = useItemLabels();
  const state = useListState<Filters>(['name', 'status', 'review']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const end = useEndHomework();

  const filters: FilterDef<Filters>[] = [
    { name: 'name', type: 'text', label: t('name'), placeholder: t('namePlaceholder') },
    { name: 'status', type: 'select', label: t('activities:task.status.label'), options: enumOptions(TASK_STATUS_TABLE, t) },
    { name: 'review', type: 'select', label: t('review'), options: [{ value: 'pending', label: t('pendingReviews') }] },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('name'), cell: ({ getValue }) => <span className="inline-block min-w-36 font-medium">{getValue()}</span> }),
        ...(family === 'admin' ? [col.accessor('schoolName', { header: t('school') })] : []),
        col.accessor('cycle', { header: t('activities:task.cycle.label'), cell: ({ getValue }) => labels.cycle(getValue()) }),
        col.display({ id: 'period', header: t('activities:task.period'), cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{t('activities:task.periodRange', { start: row.original.startDate, end: row.original.endDate })}</span> }),
        col.accessor('status', { header: t('activities:task.status.label'), cell: ({ getValue }) => <TaskStatusBadge status={getValue()} /> }),
        col.accessor('classCount', { header: t('classCount'), meta: { align: 'right' } }),
        col.display({
          id: 'done',
          header: t('doneOfStudents'),
          meta: { align: 'right' },
          cell: ({ row }) => t('doneRatio', { done: row.original.doneCount, total: row.original.studentCount }),
        }),
        col.accessor('pendingReviews', { header: t('pendingReviews'), meta: { align: 'right' } }),
        col.accessor('createdByName', { header: t('createdBy') }),
        rowActionsColumn<HomeworkRow>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            { action: 'detail', icon: <Eye aria-hidden />, onClick: (r) => void navigate(access.paths.detail!(r.id)) },
            { ...editAction<HomeworkRow>((r) => void navigate(access.paths.edit!(r.id))), hidden: (r) => r.status === 'ended' },
            {
              action: 'end',
              icon: <Square aria-hidden />,
              hidden: (r) => r.status === 'ended',
              confirm: (r) => ({ title: t('endTitle', { name: r.name }), description: t('endText') }),
              onClick: async (r) => void (await end.mutateAsync(r.id)),
            },
            deleteAction((r) => ({ title: t('deleteTitle', { name: r.name }), description: t('deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, key, family, navigate, access.paths, remove, end, labels],
  );

  return (
    <ListScreen
      pageKey={key}
      state={state}
      querySchema={homeworkListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onAdd={family === 'k12' ? () => void navigate(access.paths.add!) : undefined}
      data-testid="homework-list"
    />
  );
}
