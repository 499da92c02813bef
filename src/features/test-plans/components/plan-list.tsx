import { useMemo, useState } from 'react';
import { CircleStop, Eye, Pencil, Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { OK_MSG } from '@/domain/errors';
import { getCatalogEntry } from '@/domain/menus/catalog';
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
import { Tooltip } from '@/components/ui/tooltip';
import { useDeletePlanMutation } from '../api/delete-plan';
import { useEndPlanMutation } from '../api/end-plan';
import { usePlanOptionsQuery, usePlanSchoolsQuery } from '../api/get-plan-options';
import { usePlansQuery } from '../api/list-plans';
import { planPaths, planPermissions, type PlanFamily } from '../family';
import { recentAcademicYears } from '../years';
import { PlanFilters, type PlanFilterValues } from './plan-filters';
import { PlanStatusBadge } from './plan-status-badge';

const col = createDataTableColumnHelper<PlanRow>();

type Pending = { kind: 'end' | 'delete'; plan: PlanRow } | null;

/** organizeTest/testManage: the test plans with filters, server paging and the row actions the role holds (issue 3 §2). */
export function PlanListScreen({ family }: { family: PlanFamily }) {
  const { t } = useTranslation(['testPlanUi', 'menu', 'common']);
  const navigate = useNavigate();
  const paths = useMemo(() => planPaths(family), [family]);
  const perms = useMemo(() => planPermissions(family), [family]);
  const can = {
    add: usePermission(perms.add),
    edit: usePermission(perms.edit),
    detail: usePermission(perms.detail),
    end: usePermission(perms.end),
    delete: usePermission(perms.delete),
  };
  const [filters, setFilters] = useState<PlanFilterValues>({});
  const { paging, toFirstPage, pagination } = usePaging();
  const query = usePlansQuery(family, { ...paging, ...filters });
  const options = usePlanOptionsQuery(family, undefined, family !== 'admin');
  const schools = usePlanSchoolsQuery(family);
  const years = useMemo(
    () => (family === 'admin' ? recentAcademicYears(new Date()) : (options.data?.schoolYears.map((y) => y.academicYear) ?? [])),
    [family, options.data],
  );
  const [pending, setPending] = useState<Pending>(null);
  const end = useEndPlanMutation(family);
  const remove = useDeletePlanMutation(family);

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
                  <Button variant="link" size="sm" className="h-7 px-1.5 text-warning-foreground dark:text-warning" onClick={() => setPending({ kind: 'end', plan })} data-testid="plan-end">
                    <CircleStop aria-hidden />
                    {t('action.end')}
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
    [t, family, can.edit, can.detail, can.end, can.delete, navigate, paths],
  );

  const entry = getCatalogEntry(`${family}.test.testManage`);
  const data = query.data;

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
            aria-label={t('title')}
            columns={columns}
            data={data?.records}
            rowKey="id"
            loading={query.isFetching}
            pagination={pagination(data?.total ?? 0)}
          />
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
        description={t('confirm.deleteDescription')}
        confirmText={t('action.delete')}
        destructive
        onConfirm={async () => {
          if (!pending) return;
          await remove.mutateAsync(pending.plan.id);
          toast.success(t(OK_MSG.deleted));
        }}
      />
    </div>
  );
}
