import { useMemo, useState } from 'react';
import { CalendarClock, CircleStop, Eye, Pencil, Plus, RotateCcw, Trash2, Undo2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { OK_MSG } from '@/domain/errors';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { canCorrectDates, canUndoEnd, PLAN_ADMIN_ACTION } from '@/domain/test-plans/access';
import type { PlanRow } from '@/domain/test-plans/types';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { rowActionsColumn } from '@/components/list/row-actions';
import { usePaging } from '@/components/data-table/data-table-pagination';
import { menuLabel } from '@/components/layout/menu-label';
import { PageHeader } from '@/components/page-header/page-header';
import { usePermission } from '@/components/permission-gate/permission-gate';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { toast } from '@/components/ui/toast';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDeletePlanMutation } from '../api/delete-plan';
import { useEndPlanMutation } from '../api/end-plan';
import { useChangePlanDatesMutation } from '../api/reopen-plan';
import { useRestorePlanMutation } from '../api/restore-plan';
import { usePlanOptionsQuery, usePlanSchoolsQuery } from '../api/get-plan-options';
import { usePlansQuery } from '../api/list-plans';
import { planPaths, planPermissions } from '../family';
import type { Family } from '@/domain/menus/access';
import { showDateTime } from '../format';
import { recentAcademicYears } from '../years';
import { PlanDatesDialog } from './plan-dates-dialog';
import { PlanFilters, type PlanFilterValues } from './plan-filters';
import { PlanStatusBadge } from './plan-status-badge';

const col = createDataTableColumnHelper<PlanRow>();
const ended = (p: PlanRow) => p.status === 'ended';

type View = 'plans' | 'bin';

/** organizeTest/testManage: the test plans with filters, server paging and the row actions the role holds (issue 3 §2). */
export function PlanListScreen({ family }: { family: Family }) {
  const { t, i18n } = useTranslation(['testPlanUi', 'menu', 'common']);
  const navigate = useNavigate();
  const paths = useMemo(() => planPaths(family), [family]);
  const perms = useMemo(() => planPermissions(family), [family]);
  const pageKey = `${family}.test.testManage`;
  const can = {
    add: usePermission(perms.add),
    detail: usePermission(perms.detail),
    admin: usePermission(perms.admin),
  };
  const [filters, setFilters] = useState<PlanFilterValues>({});
  const [view, setView] = useState<View>('plans');
  const inBin = view === 'bin' && can.admin;
  const { paging, toFirstPage, pagination } = usePaging();
  const query = usePlansQuery(family, { ...paging, ...filters, ...(inBin ? { bin: 1 as const } : {}) });
  const options = usePlanOptionsQuery(family, undefined, family !== 'admin');
  const schools = usePlanSchoolsQuery(family);
  const years = useMemo(
    () => (family === 'admin' ? recentAcademicYears(new Date()) : (options.data?.schoolYears.map((y) => y.academicYear) ?? [])),
    [family, options.data],
  );
  const { mutateAsync: end } = useEndPlanMutation(family);
  const { mutateAsync: remove } = useDeletePlanMutation(family);
  const { mutateAsync: restore } = useRestorePlanMutation(family);
  const { mutateAsync: reopen } = useChangePlanDatesMutation(family);
  const [datesPlan, setDatesPlan] = useState<PlanRow | null>(null);

  // What the row actions offer follows the day the list was opened.
  const [now] = useState(() => new Date());

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
        col.accessor('scopeType', { header: t('column.scope'), cell: ({ getValue }) => t(`testPlan:scopeType.${getValue()}`) }),
        col.accessor('status', { header: t('column.status'), cell: ({ getValue }) => <PlanStatusBadge status={getValue()} /> }),
        rowActionsColumn<PlanRow>({
          pageKey,
          header: t('column.actions'),
          actions: [
            { action: 'detail', label: t('action.view'), icon: <Eye aria-hidden />, onClick: (p) => void navigate(paths.check(p.id)), testId: 'plan-view' },
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
    [t, family, can.detail, navigate, paths, now, pageKey, end, reopen, remove],
  );

  const binColumns = useMemo(() => {
    const at = (iso: string | null) => (iso ? showDateTime(iso, i18n.language) : '');
    return col.columns([
        col.accessor('name', { header: t('column.name'), cell: ({ getValue }) => <span className="font-medium" data-testid="plan-name">{getValue()}</span> }),
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
        col.accessor('deletedAt', {
          header: t('binColumn.deletedAt'),
          // The live list's rows stay on screen (without these) while the bin loads.
          cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{at(getValue())}</span>,
        }),
        col.accessor('purgeAt', {
          header: t('binColumn.purgeAt'),
          // The live list's rows stay on screen (without these) while the bin loads.
          cell: ({ getValue }) => <span className="whitespace-nowrap tabular-nums">{at(getValue())}</span>,
        }),
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
              done: 'testPlanUi:restored',
              onClick: async (p) => void (await restore(p.id)),
              testId: 'plan-restore',
            },
          ],
        }),
    ]);
  }, [t, family, i18n.language, pageKey, restore]);

  const entry = getCatalogEntry(`${family}.test.testManage`);
  const switchView = (next: string) => {
    setView(next === 'bin' ? 'bin' : 'plans');
    toFirstPage();
  };
  const data = query.data;

  const body = (
    <>
      {inBin ? (
        <p className="text-sm text-muted-foreground" data-testid="plan-bin-hint">
          {t('binHint')}
        </p>
      ) : null}
      <PlanFilters
        value={filters}
        years={years}
        schools={family === 'admin' ? (schools.data ?? []) : undefined}
        onChange={(f) => {
          setFilters(f);
          toFirstPage();
        }}
      />
      <DataTable
        aria-label={inBin ? t('tab.bin') : t('title')}
        columns={inBin ? binColumns : columns}
        data={data?.records}
        rowKey="id"
        loading={query.isFetching}
        pagination={pagination(data?.total ?? 0)}
      />
    </>
  );
  return (
    <div data-testid="plan-list" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader
        title={entry ? menuLabel(t, entry) : t('title')}
        description={t('description')}
        actions={
          can.add ? (
            <Button onClick={() => void navigate(paths.add)} data-testid="plan-add">
              <Plus aria-hidden />
              {t('action.add')}
            </Button>
          ) : null
        }
        className="pb-0"
      />
      <Card>
        <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
          {can.admin ? (
            // The view below is the active tab's panel, so each tab controls an element that exists.
            <Tabs value={view} onValueChange={switchView} className="grid grid-cols-[minmax(0,1fr)] gap-4">
              <TabsList>
                <TabsTrigger value="plans" data-testid="plan-tab-plans">
                  {t('tab.plans')}
                </TabsTrigger>
                <TabsTrigger value="bin" data-testid="plan-tab-bin">
                  <Trash2 aria-hidden />
                  {t('tab.bin')}
                </TabsTrigger>
              </TabsList>
              <TabsContent value={view} className="grid grid-cols-[minmax(0,1fr)] gap-4">
                {body}
              </TabsContent>
            </Tabs>
          ) : (
            body
          )}
        </CardContent>
      </Card>
      <PlanDatesDialog family={family} plan={datesPlan} onClose={() => setDatesPlan(null)} />
    </div>
  );
}
