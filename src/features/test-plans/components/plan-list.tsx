import { useMemo, useState } from 'react';
import { CalendarClock, CircleStop, Eye, Pencil, RotateCcw, Trash2, Undo2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { SEMESTER } from '@/domain/constants';
import { OK_MSG } from '@/domain/errors';
import type { Family } from '@/domain/menus/access';
import { canCorrectDates, canUndoEnd, PLAN_ADMIN_ACTION } from '@/domain/test-plans/access';
import { enumOptions } from '@/domain/presentation';
import { PLAN_STATUS_TABLE } from '@/domain/test-plans/status';
import { PLAN_RELEASED_FILTERS } from '@/domain/test-plans/schemas';
import type { PlanRow } from '@/domain/test-plans/types';
import { createDataTableColumnHelper, type DataTableColumns } from '@/components/data-table/data-table';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { rowActionsColumn, type RowAction } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePermission } from '@/components/permission-gate/permission-gate';
import { toast } from '@/lib/toast';
import { useEndPlanMutation } from '../api/end-plan';
import { usePlanOptionsQuery, usePlanSchoolsQuery } from '../api/get-plan-options';
import { plans } from '../api/plans';
import { useChangePlanDatesMutation } from '../api/reopen-plan';
import { useRestorePlanMutation } from '../api/restore-plan';
import { planPaths, planPermissions } from '../family';
import { recentAcademicYears } from '../years';
import { PlanDatesDialog } from './plan-dates-dialog';
import { PlanStatusBadge } from './plan-status-badge';
import { useDateTime } from '@/lib/date-time';

const col = createDataTableColumnHelper<PlanRow>();
const ended = (p: PlanRow) => p.status === 'ended';

type PlanFilters = { schoolOrgId?: string; name?: string; academicYear?: string; semesterCode?: string; status?: string; released?: string };
const FILTERS = ['schoolOrgId', 'name', 'academicYear', 'semesterCode', 'status', 'released'] as const;

/**
 * organizeTest/testManage: the test plans with filters, server paging and the row actions the role holds; plan
 * administrators also see the recycle bin (docs/product-rules.md).
 */
/** Columns and row actions another feature adds to the live list (src/app composes them: reports parents read). */
export interface PlanListExtension {
  columns: DataTableColumns<PlanRow>;
  actions: RowAction<PlanRow>[];
}

export function PlanListScreen({ family, extension }: { family: Family; extension?: PlanListExtension }) {
  const { t } = useTranslation(['testPlansUi', 'menus', 'common']);
  const dateTime = useDateTime('medium');
  const navigate = useNavigate();
  const paths = useMemo(() => planPaths(family), [family]);
  const perms = useMemo(() => planPermissions(family), [family]);
  const pageKey = `${family}.test.testManage`;
  const can = { detail: usePermission(perms.detail), admin: usePermission(perms.admin) };
  const state = useListState<PlanFilters>(FILTERS, { views: can.admin ? ['plans', 'bin'] : ['plans'] });
  const inBin = state.view === 'bin';
  const resource = plans(family);
  const query = resource.useList({ ...state.query, ...(inBin ? { bin: 1 } : {}) });
  const options = usePlanOptionsQuery(family, undefined, family !== 'admin');
  const schools = usePlanSchoolsQuery(family);
  const years = useMemo(
    () => (family === 'admin' ? recentAcademicYears(new Date()) : (options.data?.schoolYears.map((y) => y.academicYear) ?? [])),
    [family, options.data],
  );
  const { mutateAsync: end } = useEndPlanMutation(family);
  const { mutateAsync: remove } = resource.useDelete();
  const { mutateAsync: restore } = useRestorePlanMutation(family);
  const { mutateAsync: reopen } = useChangePlanDatesMutation(family);
  const [datesPlan, setDatesPlan] = useState<PlanRow | null>(null);

  const school: FilterDef<PlanFilters> = {
    name: 'schoolOrgId',
    type: 'select',
    label: t('filter.school'),
    className: 'w-52',
    options: (schools.data ?? []).map((s) => ({ value: s.id, label: s.name })),
  };
  const filters: FilterDef<PlanFilters>[] = [
    ...(family === 'admin' ? [school] : []),
    { name: 'name', type: 'text', label: t('filter.name'), className: 'w-52', placeholder: t('filter.namePlaceholder') },
    { name: 'academicYear', type: 'select', label: t('filter.schoolYear'), options: years.map((y) => ({ value: y, label: y })) },
    {
      name: 'semesterCode',
      type: 'select',
      label: t('filter.semester'),
      className: 'w-36',
      options: Object.values(SEMESTER).map((code) => ({ value: String(code), label: t(`semester.${code}`) })),
    },
    { name: 'status', type: 'select', label: t('filter.status'), className: 'w-32', options: enumOptions(PLAN_STATUS_TABLE, t) },
    // Reports released to the families; the to-do "reports to release" opens `released=no` (docs/product-rules.md#to-dos-and-messages).
    { name: 'released', type: 'select', label: t('filter.released'), className: 'w-32', options: PLAN_RELEASED_FILTERS.map((v) => ({ value: v, label: t(`filter.releasedOption.${v}`) })) },
  ];

  // What the row actions offer follows the day the list was opened.
  const [now] = useState(() => new Date());

  // Term and dates, shown in both views.
  const planColumns = useMemo(
    () => [
      ...(family === 'admin' ? [col.accessor('orgName', { header: t('column.school') })] : []),
      col.display({
        id: 'term',
        header: t('column.term'),
        cell: ({ row }) => `${row.original.academicYear} ${t(`semester.${row.original.semesterCode}`)}`,
      }),
      col.display({
        id: 'dates',
        header: t('column.dates'),
        cell: ({ row }) => (
          <span className="whitespace-nowrap tabular-nums">{t('dateRange', { start: row.original.startDate, end: row.original.endDate })}</span>
        ),
      }),
    ],
    [t, family],
  );

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: t('column.name'),
          cell: ({ row }) =>
            can.detail ? (
              <Link className="font-medium text-primary hover:underline" to={paths.check(row.original.id)} data-testid="plan-name">
                {row.original.name}
              </Link>
            ) : (
              <span className="font-medium" data-testid="plan-name">
                {row.original.name}
              </span>
            ),
        }),
        ...planColumns,
        col.accessor('scopeType', { header: t('column.scope'), cell: ({ getValue }) => t(`testPlans:scopeType.${getValue()}`) }),
        col.accessor('status', { header: t('column.status'), cell: ({ getValue }) => <PlanStatusBadge status={getValue()} /> }),
        ...(extension?.columns ?? []),
        rowActionsColumn<PlanRow>({
          pageKey,
          header: t('column.actions'),
          actions: [
            { action: 'detail', label: t('action.view'), icon: <Eye aria-hidden />, onClick: (p) => void navigate(paths.check(p.id)), testId: 'plan-view' },
            // Another feature's actions (releasing an ended plan's reports) come right after view: the ones an ended plan is used for.
            ...(extension?.actions ?? []),
            // The catalogue has no edit button for plans: editing needs the add permission.
            { action: 'add', label: t('action.edit'), icon: <Pencil aria-hidden />, hidden: ended, onClick: (p) => void navigate(paths.edit(p.id)), testId: 'plan-edit' },
            {
              action: 'end',
              label: t('action.end'),
              icon: <CircleStop aria-hidden />,
              hidden: ended,
              className: 'text-warning',
              confirm: (p) => ({ title: t('confirm.endTitle', { name: p.name }), description: t('confirm.endDescription') }),
              onClick: async (p) => void (await end(p.id)),
              testId: 'plan-end',
            },
            {
              action: PLAN_ADMIN_ACTION,
              label: t('actionExtra.undoEnd'),
              icon: <Undo2 aria-hidden />,
              hidden: (p) => !canUndoEnd(p, now),
              destructive: false,
              confirm: (p) => ({ title: t('confirmExtra.undoEndTitle', { name: p.name }), description: t('confirmExtra.undoEndDescription') }),
              onClick: async (p) => void (await reopen({ id: p.id, reopen: true })),
              testId: 'plan-undo-end',
            },
            {
              action: PLAN_ADMIN_ACTION,
              label: t('actionExtra.correctDates'),
              icon: <CalendarClock aria-hidden />,
              hidden: (p) => !canCorrectDates(p, now),
              onClick: setDatesPlan,
              testId: 'plan-correct-dates',
            },
            {
              action: 'delete',
              label: t('action.delete'),
              icon: <Trash2 aria-hidden />,
              destructive: true,
              disabled: (p) => p.status === 'inProgress',
              disabledHint: () => t('hint.deleteInProgress'),
              confirm: (p) => ({ title: t('confirm.deleteTitle', { name: p.name }), description: t('confirmExtra.deleteBinDescription') }),
              done: false,
              onClick: async (p) => {
                const { binned } = await remove(p.id);
                toast.success(binned ? t('binned') : t(OK_MSG.deleted));
              },
              testId: 'plan-delete',
            },
          ],
        }),
      ]),
    [t, planColumns, can.detail, navigate, paths, now, pageKey, end, reopen, remove, extension],
  );

  const binColumns = useMemo(() => {
    // The live list's rows stay on screen (without these) while the bin loads.
    const at = (iso: string | null) => <span className="whitespace-nowrap tabular-nums">{iso ? dateTime(iso) : ''}</span>;
    return col.columns([
      col.accessor('name', { header: t('column.name'), cell: ({ getValue }) => <span className="font-medium" data-testid="plan-name">{getValue()}</span> }),
      ...planColumns,
      col.accessor('deletedAt', { header: t('binColumn.deletedAt'), cell: ({ getValue }) => at(getValue()) }),
      col.accessor('purgeAt', { header: t('binColumn.purgeAt'), cell: ({ getValue }) => at(getValue()) }),
      rowActionsColumn<PlanRow>({
        pageKey,
        header: t('column.actions'),
        actions: [
          {
            action: PLAN_ADMIN_ACTION,
            label: t('actionExtra.restore'),
            icon: <RotateCcw aria-hidden />,
            destructive: false,
            confirm: (p) => ({ title: t('confirmExtra.restoreTitle', { name: p.name }), description: t('confirmExtra.restoreDescription') }),
            done: 'testPlansUi:restored',
            onClick: async (p) => void (await restore(p.id)),
            testId: 'plan-restore',
          },
        ],
      }),
    ]);
  }, [t, dateTime, planColumns, pageKey, restore]);

  return (
    <>
      <ListScreen
        pageKey={pageKey}
        description={t('description')}
        state={state}
        filters={filters}
        query={query}
        columns={inBin ? binColumns : columns}
        rowKey="id"
        onAdd={() => void navigate(paths.add)}
        views={
          can.admin
            ? [
                { value: 'plans', label: t('tab.plans') },
                { value: 'bin', label: t('tab.bin'), icon: <Trash2 aria-hidden />, hint: t('binHint') },
              ]
            : undefined
        }
        data-testid="plan-list"
      />
      <PlanDatesDialog family={family} plan={datesPlan} onClose={() => setDatesPlan(null)} />
    </>
  );
}
