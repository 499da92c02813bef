import { useMemo, useState } from 'react';
import { CalendarClock, CircleStop, Eye, Pencil, Plus, RotateCcw, Trash2, Undo2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { OK_MSG } from '@/domain/errors';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { canCorrectDates, canUndoEnd } from '@/domain/test-plans/access';
import type { PlanRow } from '@/domain/test-plans/types';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { usePaging } from '@/components/data-table/data-table-pagination';
import { menuLabel } from '@/components/layout/menu-label';
import { PageHeader } from '@/components/page-header/page-header';
import { usePermission } from '@/components/permission-gate/permission-gate';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Tooltip } from '@/components/ui/tooltip';
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

type Pending = { kind: 'end' | 'delete' | 'undoEnd' | 'restore'; plan: PlanRow } | null;
type View = 'plans' | 'bin';

/** organizeTest/testManage: the test plans with filters, server paging and the row actions the role holds (issue 3 §2). */
export function PlanListScreen({ family }: { family: Family }) {
  const { t, i18n } = useTranslation(['testPlanUi', 'menu', 'common']);
  const navigate = useNavigate();
  const paths = useMemo(() => planPaths(family), [family]);
  const perms = useMemo(() => planPermissions(family), [family]);
  const can = {
    add: usePermission(perms.add),
    edit: usePermission(perms.edit),
    detail: usePermission(perms.detail),
    end: usePermission(perms.end),
    delete: usePermission(perms.delete),
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
  const [pending, setPending] = useState<Pending>(null);
  const end = useEndPlanMutation(family);
  const remove = useDeletePlanMutation(family);
  const restore = useRestorePlanMutation(family);
  const reopen = useChangePlanDatesMutation(family);
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
        col.display({
          id: 'actions',
          header: t('column.actions'),
          meta: { align: 'right', className: 'whitespace-nowrap', pin: 'right' },
          cell: ({ row }) => {
            const plan = row.original;
            const ended = plan.status === 'ended';
            return (
              <div className="flex justify-end gap-1" data-testid="plan-actions">
                {can.detail ? (
                  <Button variant="link" size="sm" className="h-7 px-1.5" onClick={() => void navigate(paths.check(plan.id))}>
                    <Eye aria-hidden />
                    {t('action.view')}
                  </Button>
                ) : null}
                {can.edit && !ended ? (
                  <Button variant="link" size="sm" className="h-7 px-1.5" onClick={() => void navigate(paths.edit(plan.id))} data-testid="plan-edit">
                    <Pencil aria-hidden />
                    {t('action.edit')}
                  </Button>
                ) : null}
                {can.end && !ended ? (
                  <Button variant="link" size="sm" className="h-7 px-1.5 text-warning" onClick={() => setPending({ kind: 'end', plan })} data-testid="plan-end">
                    <CircleStop aria-hidden />
                    {t('action.end')}
                  </Button>
                ) : null}
                {can.admin && canUndoEnd(plan, now) ? (
                  <Button variant="link" size="sm" className="h-7 px-1.5" onClick={() => setPending({ kind: 'undoEnd', plan })} data-testid="plan-undo-end">
                    <Undo2 aria-hidden />
                    {t('actionExtra.undoEnd')}
                  </Button>
                ) : null}
                {can.admin && canCorrectDates(plan, now) ? (
                  <Button variant="link" size="sm" className="h-7 px-1.5" onClick={() => setDatesPlan(plan)} data-testid="plan-correct-dates">
                    <CalendarClock aria-hidden />
                    {t('actionExtra.correctDates')}
                  </Button>
                ) : null}
                {can.delete ? (
                  <Tooltip content={plan.status === 'inProgress' ? t('hint.deleteInProgress') : undefined}>
                    <span>
                      <Button
                        variant="link"
                        size="sm"
                        className="h-7 px-1.5 text-destructive"
                        disabled={plan.status === 'inProgress'}
                        onClick={() => setPending({ kind: 'delete', plan })}
                        data-testid="plan-delete"
                      >
                        <Trash2 aria-hidden />
                        {t('action.delete')}
                      </Button>
                    </span>
                  </Tooltip>
                ) : null}
              </div>
            );
          },
        }),
      ]),
    [t, family, can.edit, can.detail, can.end, can.delete, can.admin, navigate, paths, now],
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
        col.display({
          id: 'actions',
          header: t('column.actions'),
          meta: { align: 'right', className: 'whitespace-nowrap' },
          cell: ({ row }) => (
            <div className="flex justify-end gap-1" data-testid="plan-actions">
              <Button variant="link" size="sm" className="h-7 px-1.5" onClick={() => setPending({ kind: 'restore', plan: row.original })} data-testid="plan-restore">
                <RotateCcw aria-hidden />
                {t('actionExtra.restore')}
              </Button>
            </div>
          ),
        }),
    ]);
  }, [t, family, i18n.language]);

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
      <ConfirmDialog
        open={pending?.kind === 'end'}
        onOpenChange={(open) => !open && setPending(null)}
        title={t('confirm.endTitle', { name: pending?.plan.name ?? '' })}
        description={t('confirm.endDescription')}
        confirmText={t('action.end')}
        destructive
        onConfirm={async () => {
          if (!pending) return;
          await end.mutateAsync(pending.plan.id);
          toast.success(t(OK_MSG.operation));
        }}
      />
      <ConfirmDialog
        open={pending?.kind === 'delete'}
        onOpenChange={(open) => !open && setPending(null)}
        title={t('confirm.deleteTitle', { name: pending?.plan.name ?? '' })}
        description={t('confirmExtra.deleteBinDescription')}
        confirmText={t('action.delete')}
        destructive
        onConfirm={async () => {
          if (!pending) return;
          const { binned } = await remove.mutateAsync(pending.plan.id);
          toast.success(binned ? t('binned') : t(OK_MSG.deleted));
        }}
      />
      <ConfirmDialog
        open={pending?.kind === 'undoEnd'}
        onOpenChange={(open) => !open && setPending(null)}
        title={t('confirmExtra.undoEndTitle', { name: pending?.plan.name ?? '' })}
        description={t('confirmExtra.undoEndDescription')}
        confirmText={t('actionExtra.undoEnd')}
        onConfirm={async () => {
          if (!pending) return;
          await reopen.mutateAsync({ id: pending.plan.id, reopen: true });
          toast.success(t(OK_MSG.operation));
        }}
      />
      <ConfirmDialog
        open={pending?.kind === 'restore'}
        onOpenChange={(open) => !open && setPending(null)}
        title={t('confirmExtra.restoreTitle', { name: pending?.plan.name ?? '' })}
        description={t('confirmExtra.restoreDescription')}
        confirmText={t('actionExtra.restore')}
        onConfirm={async () => {
          if (!pending) return;
          await restore.mutateAsync(pending.plan.id);
          toast.success(t('restored'));
        }}
      />
      <PlanDatesDialog family={family} plan={datesPlan} onClose={() => setDatesPlan(null)} />
    </div>
  );
}
