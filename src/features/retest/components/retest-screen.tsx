import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  retestCreateSchema,
  retestStudentQuery,
  YEAR_SOURCE_TABLE,
  type RetestCreateForm,
  type RetestPlan,
  type RetestStudent,
  type RetestStudentPage,
} from '@/domain/retest/retest';
import { PLAN_STATUS_TABLE } from '@/domain/test-plans/status';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { FormDialog } from '@/components/form/form-dialog';
import { DateField, SelectField, TextField } from '@/components/form/fields';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import type { ActionDialogProps, PageActions } from '@/components/list/page-actions';
import { useListState } from '@/components/list/use-list-state';
import { cn } from '@/lib/cn';
import { retestKey, retestResource, useRetestCandidates, useRetestPlans, type RetestFamily } from '../api';

type Filters = { planId?: string; keyword?: string };
const col = createDataTableColumnHelper<RetestStudent>();
const total = (v: number | null) => (v == null ? '—' : String(Math.round(v * 10) / 10));

/**
 * physiqueManage/retest (docs/product-rules.md#physique-year, "Re-test"): the school's re-test plans, one at a time
 * (the plan filter; the latest by default) with its eligible students, each with the original total, the re-test total
 * and the year's result; 发起补测 and the export. Results are imported or synced on the test-plan page.
 */
export function RetestScreen({ family }: { family: RetestFamily }) {
  const { t } = useTranslation(['retest', 'physique']);
  const key = retestKey(family);
  const api = retestResource(family);
  const state = useListState<Filters>(['planId', 'keyword']);
  const query = api.useList(state.query);
  const plans = useRetestPlans(family);
  const plan = (query.data as RetestStudentPage | undefined)?.plan ?? null;

  const filters: FilterDef<Filters>[] = [
    {
      name: 'planId',
      type: 'select',
      label: t('plan'),
      options: (plans.data ?? []).map((p) => ({ value: p.id, label: `${p.name}（${p.academicYear}）` })),
      className: 'sm:w-80',
    },
    { name: 'keyword', type: 'text', label: t('keyword'), placeholder: t('keywordPlaceholder') },
  ];
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('column.name'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        col.accessor('regNo', { header: t('column.regNo'), meta: { className: 'whitespace-nowrap' } }),
        col.accessor('gender', { header: t('column.gender'), cell: ({ getValue }) => t(`physique:gender.${getValue()}`) }),
        col.accessor('className', { header: t('column.className') }),
        col.accessor('planTotal', { header: t('column.planTotal'), meta: { align: 'right' }, cell: ({ getValue }) => <span className="tabular-nums">{total(getValue())}</span> }),
        col.accessor('retestTotal', { header: t('column.retestTotal'), meta: { align: 'right' }, cell: ({ getValue }) => <span className="tabular-nums">{total(getValue())}</span> }),
        col.accessor('yearSource', { header: t('column.yearSource'), cell: ({ getValue }) => <EnumBadge table={YEAR_SOURCE_TABLE} value={getValue()} /> }),
        col.accessor('yearTotal', {
          header: t('column.yearTotal'),
          meta: { align: 'right' },
          cell: ({ row, getValue }) => (
            <span className={cn('font-semibold tabular-nums', row.original.yearLevel === 'fail' ? 'text-destructive' : row.original.yearLevel ? 'text-success' : undefined)}>{total(getValue())}</span>
          ),
        }),
        col.accessor('yearLevel', { header: t('column.yearLevel'), cell: ({ getValue }) => (getValue() ? t(`physique:level.${getValue()}`) : '—') }),
      ]),
    [t],
  );
  const actions: PageActions<RetestStudent> = {
    add: { button: 'add', where: 'toolbar', label: t('add.title'), dialog: (p) => <RetestAddDialog family={family} {...p} /> },
  };

  return (
    <ListScreen
      pageKey={key}
      description={<RetestSummary plan={plan} />}
      state={state}
      querySchema={retestStudentQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="studentId"
      actions={actions}
      onExport={(f) => api.exportList({ ...f, planId: f.planId ?? plan?.id })}
      exportLayout="list"
      data-testid="retest-list"
    />
  );
}

/** The re-test plan shown: its original, dates, status and counts (or how to start one). */
function RetestSummary({ plan }: { plan: RetestPlan | null }) {
  const { t } = useTranslation(['retest', 'testPlans']);
  if (!plan) {
    return (
      <span data-testid="retest-summary">
        {t('intro')} {t('noPlansHint')}
      </span>
    );
  }
  const counts: [string, number, string?][] = [
    [t('summary.eligible'), plan.eligible],
    [t('summary.tested'), plan.tested],
    [t('summary.passed'), plan.passed, 'text-success'],
    [t('summary.untested'), plan.eligible - plan.tested, plan.eligible > plan.tested ? 'text-warning' : undefined],
  ];
  return (
    <span className="grid gap-2" data-testid="retest-summary">
      <span>{t('intro')}</span>
      <span className="flex flex-wrap items-center gap-x-6 gap-y-1 text-sm text-foreground">
        <span>
          <span className="text-muted-foreground">{t('plan')}</span> <span className="font-medium" data-testid="retest-plan-name">{plan.name}</span>
        </span>
        <span>
          <span className="text-muted-foreground">{t('originalPlan')}</span> <span className="font-medium">{plan.originalPlanName}</span>
        </span>
        <span>
          <span className="text-muted-foreground">{t('dates')}</span> <span className="tabular-nums">{`${plan.startDate} ~ ${plan.endDate}`}</span>
        </span>
        <EnumBadge table={PLAN_STATUS_TABLE} value={plan.status} />
        {counts.map(([label, n, tone]) => (
          <span key={label}>
            <span className="text-muted-foreground">{label}</span> <span className={cn('font-semibold tabular-nums', tone)}>{n}</span>
          </span>
        ))}
      </span>
    </span>
  );
}

/** 发起补测: the plan to re-test (those with failing years and no re-test yet), the days and the name. */
function RetestAddDialog({ family, open, onOpenChange, done }: { family: RetestFamily } & ActionDialogProps<RetestStudent>) {
  const { t } = useTranslation('retest');
  const api = retestResource(family);
  const save = api.useSave();
  const candidates = useRetestCandidates(family, open);
  const [picked, setPicked] = useState<string>('');
  const chosen = candidates.data?.find((c) => c.id === picked);
  const defaults: RetestCreateForm = { planId: '', name: '', startDate: '', endDate: '' };
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={retestCreateSchema}
      defaults={defaults}
      title={t('add.title')}
      submit={(body) => save.mutateAsync(body)}
      success={(made: RetestPlan) => t('add.done', { name: made.name })}
      onDone={done}
      submitText={t('add.submit')}
      data-testid="retest-add-dialog"
    >
      {() => (
        <>
          <p className="text-sm text-muted-foreground">{t('add.text')}</p>
          {candidates.data && candidates.data.length === 0 ? <p className="text-sm text-warning">{t('add.noCandidates')}</p> : null}
          <SelectField
            name="planId"
            label={t('add.plan')}
            required
            options={(candidates.data ?? []).map((c) => ({ value: c.id, label: t('add.planOption', { name: c.name, year: c.academicYear, count: c.eligible }) }))}
            onValueChange={setPicked}
          />
          <TextField name="name" label={t('add.name')} description={t('add.nameHint')} />
          <div className="grid gap-4 sm:grid-cols-2">
            <DateField name="startDate" label={t('add.startDate')} required min={chosen?.startDate} max={chosen?.yearEnd} />
            <DateField name="endDate" label={t('add.endDate')} required min={chosen?.startDate} max={chosen?.yearEnd} />
          </div>
          {chosen ? <p className="text-xs text-muted-foreground">{t('add.datesHint', { start: chosen.startDate, end: chosen.yearEnd })}</p> : null}
        </>
      )}
    </FormDialog>
  );
}
