import { useMemo, useState } from 'react';
import { BarChart3, Eye, Square } from 'lucide-react';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { TASK_CYCLE_TABLE } from '@/domain/homework/homework';
import { PICK_ITEMS, PICK_LEVEL_TABLE, trainingListQuery, trainingSaveSchema, type TrainingForm, type TrainingProgress, type TrainingRow, type TrainingSession } from '@/domain/training/training';
import { enumOptions } from '@/domain/presentation';
import { TASK_STATUS_TABLE } from '@/domain/test-plans/status';
import { localDate } from '@/domain/dates';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { usePaging } from '@/components/data-table/data-table-pagination';
import { CheckboxGroupField, DateField, FieldGroup, RadioField, TextField } from '@/components/form/fields';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { FilterSelect } from '@/components/search-form/search-form';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { DetailState } from '@/components/query-state/query-state';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ItemTargets, TaskItemsField, TaskStatusBadge, useItemLabels } from '../../components/activities/task-items-field';
import { TRAINING_KEY, training, useCandidates, useEndTraining, useProgress, useSessions, useTrainingOptions } from './api';

type Filters = { name?: string; status?: string };
const col = createDataTableColumnHelper<TrainingRow>();

/** specialTraining/specialTrainingList: plans with status, students, sessions and how many reached their targets. */
export function TrainingListScreen() {
  const { t } = useTranslation('training');
  const navigate = useNavigate();
  const access = usePageAccess(TRAINING_KEY);
  const labels = useItemLabels();
  const state = useListState<Filters>(['name', 'status']);
  const query = training.useList(state.query);
  const remove = training.useDelete();
  const end = useEndTraining();
  const filters: FilterDef<Filters>[] = [
    { name: 'name', type: 'text', label: t('name'), placeholder: t('namePlaceholder') },
    { name: 'status', type: 'select', label: t('activities:task.status.label'), options: enumOptions(TASK_STATUS_TABLE, t) },
  ];
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', { header: t('name'), cell: ({ getValue }) => <span className="inline-block min-w-36 font-medium">{getValue()}</span> }),
        col.accessor('cycle', { header: t('activities:task.cycle.label'), cell: ({ getValue }) => labels.cycle(getValue()) }),
        col.display({ id: 'period', header: t('activities:task.period'), cell: ({ row }) => <span className="whitespace-nowrap tabular-nums">{t('activities:task.periodRange', { start: row.original.startDate, end: row.original.endDate })}</span> }),
        col.accessor('status', { header: t('activities:task.status.label'), cell: ({ getValue }) => <TaskStatusBadge status={getValue()} /> }),
        col.accessor('studentCount', { header: t('students'), meta: { align: 'right' } }),
        col.accessor('sessionCount', { header: t('sessions'), meta: { align: 'right' } }),
        col.accessor('reachedCount', { header: t('reached'), meta: { align: 'right' } }),
        col.accessor('createdByName', { header: t('homework:createdBy') }),
        rowActionsColumn<TrainingRow>({
          pageKey: TRAINING_KEY,
          header: t('components:list.actions'),
          actions: [
            { action: 'detail', icon: <Eye aria-hidden />, onClick: (r) => void navigate(access.paths.detail!(r.id)) },
            { action: 'data', icon: <BarChart3 aria-hidden />, onClick: (r) => void navigate(access.paths.route('detailDataList', r.id)) },
            {
              action: 'end',
              icon: <Square aria-hidden />,
              hidden: (r) => r.status === 'ended',
              confirm: (r) => ({ title: t('homework:endTitle', { name: r.name }), description: t('endText') }),
              onClick: async (r) => void (await end.mutateAsync(r.id)),
            },
            deleteAction((r) => ({ title: t('homework:deleteTitle', { name: r.name }), description: t('deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    [t, navigate, access.paths, remove, end, labels],
  );
  return (
    <ListScreen
      pageKey={TRAINING_KEY}
      state={state}
      querySchema={trainingListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onAdd={() => void navigate(access.paths.add!)}
      data-testid="training-list"
    />
  );
}

/** Target students picked from a test plan's results: plan, item and level, then tick the students. */
function StudentPicker() {
  const { t } = useTranslation(['training', 'physique']);
  const { setValue } = useFormContext<TrainingForm>();
  const options = useTrainingOptions();
  const labels = useItemLabels();
  const [pick, setPick] = useState({ planId: '', item: 'rope1min', level: 'fail' });
  const candidates = useCandidates(pick);
  const choose = (next: typeof pick) => {
    setPick(next);
    setValue('sourcePlanId', next.planId);
    setValue('sourceItem', next.item);
    setValue('sourceLevel', next.level as TrainingForm['sourceLevel']);
    setValue('studentIds', []);
  };
  return (
    <fieldset className="grid gap-3 md:col-span-2" data-testid="training-picker">
      <legend className="mb-2 text-sm font-medium">{t('pickTitle')}</legend>
      <div className="flex flex-wrap gap-4">
        <FilterSelect label={t('sourcePlan')} value={pick.planId} onChange={(v) => choose({ ...pick, planId: v ?? '' })} options={(options.data?.plans ?? []).map((p) => ({ value: p.id, label: p.name }))} />
        <FilterSelect label={t('activities:task.itemLabel')} value={pick.item} onChange={(v) => choose({ ...pick, item: v ?? '' })} options={PICK_ITEMS.map((k) => ({ value: k, label: labels.item(k) }))} />
        <FilterSelect label={t('level')} value={pick.level} onChange={(v) => choose({ ...pick, level: v ?? '' })} options={enumOptions(PICK_LEVEL_TABLE, t)} />
      </div>
      <CheckboxGroupField
        name="studentIds"
        label={t('targetStudents', { n: candidates.data?.length ?? 0 })}
        required
        options={(candidates.data ?? []).map((c) => ({ value: c.studentId, label: `${c.name}（${c.className}${c.value === null ? '' : ` · ${labels.value(pick.item, c.value)}`}）` }))}
      />
    </fieldset>
  );
}

/** specialTraining/specialTrainingList/add. */
export function TrainingFormScreen() {
  const { t } = useTranslation('training');
  const access = usePageAccess(TRAINING_KEY);
  const [now] = useState(() => Date.now());
  const defaults: TrainingForm = {
    name: '',
    cycle: 'daily',
    startDate: localDate(new Date(now)),
    endDate: localDate(new Date(now + 27 * 86_400_000)),
    items: [{ item: 'rope1min', target: '', intensity: 'medium' }],
    studentIds: [],
  };
  return (
    <FormScreen
      schema={trainingSaveSchema}
      resource={training}
      defaults={defaults}
      toValues={() => defaults}
      title={t('addTitle')}
      description={t('formHint')}
      backTo={access.paths.list}
      data-testid="training-form"
    >
      {() => (
        <FieldGroup>
          <TextField name="name" label={t('name')} required />
          <RadioField name="cycle" label={t('activities:task.cycle.label')} required options={enumOptions(TASK_CYCLE_TABLE, t)} />
          <DateField name="startDate" label={t('activities:task.startDate')} required />
          <DateField name="endDate" label={t('activities:task.endDate')} required />
          <TaskItemsField />
          <StudentPicker />
        </FieldGroup>
      )}
    </FormScreen>
  );
}

const progressCol = createDataTableColumnHelper<TrainingProgress>();
const sessionCol = createDataTableColumnHelper<TrainingSession>();

/** specialTraining/specialTrainingList/detail/:id and detailDataList/:id: the plan, progress per student, sessions. */
export function TrainingDetailScreen({ tab = 'progress' }: { tab?: 'progress' | 'sessions' }) {
  const { t } = useTranslation('training');
  const { id = '' } = useParams();
  const labels = useItemLabels();
  const query = training.useGet(id);
  const progressPaging = usePaging();
  const sessionPaging = usePaging();
  const progress = useProgress(id, progressPaging.paging, query.isSuccess);
  const sessions = useSessions(id, sessionPaging.paging, query.isSuccess);
  const progressColumns = useMemo(
    () =>
      progressCol.columns([
        progressCol.accessor('name', { header: t('homework:student'), cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        progressCol.accessor('className', { header: t('homework:className') }),
        progressCol.accessor('sessions', { header: t('sessions'), meta: { align: 'right' } }),
        progressCol.display({
          id: 'items',
          header: t('progress'),
          cell: ({ row }) => (
            <ul className="grid gap-1">
              {row.original.items.map((i) => (
                <li key={i.item} className="flex items-center gap-2">
                  <span className="w-28 truncate">{labels.item(i.item)}</span>
                  <span className="h-2 w-24 overflow-hidden rounded bg-muted" aria-hidden>
                    <span className="block h-full bg-primary" style={{ width: `${Math.round(i.progress * 100)}%` }} />
                  </span>
                  <span className="tabular-nums">
                    {t('bestOf', { best: i.best ?? '—', target: labels.value(i.item, i.target), baseline: i.baseline ?? '—' })}
                  </span>
                </li>
              ))}
            </ul>
          ),
        }),
        progressCol.accessor('reachedAll', {
          header: t('reachedState'),
          cell: ({ getValue }) => <Badge variant={getValue() ? 'success' : 'outline'}>{t(getValue() ? 'reachedYes' : 'reachedNo')}</Badge>,
        }),
      ]),
    [t, labels],
  );
  const sessionColumns = useMemo(
    () =>
      sessionCol.columns([
        sessionCol.accessor('studentName', { header: t('homework:student') }),
        sessionCol.accessor('className', { header: t('homework:className') }),
        sessionCol.accessor('item', { header: t('activities:task.itemLabel'), cell: ({ getValue }) => labels.item(getValue()) }),
        sessionCol.accessor('value', { header: t('homework:value'), meta: { align: 'right' }, cell: ({ row }) => labels.value(row.original.item, row.original.value) }),
        sessionCol.accessor('measuredAt', { header: t('homework:measuredAt'), cell: ({ getValue }) => getValue().slice(0, 16).replace('T', ' ') }),
        sessionCol.accessor('invalid', { header: t('homework:review'), cell: ({ getValue }) => (getValue() ? <Badge variant="destructive">{t('homework:reviewState.invalid')}</Badge> : null) }),
      ]),
    [t, labels],
  );
  const plan = query.data;
  if (!plan) return <DetailState query={query} title={t('detailTitle')} notFound={t('notFound')} />;
  return (
    <div data-testid="training-detail" className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <PageHeader
        title={
          <span className="flex items-center gap-3">
            <span className="truncate">{plan.name}</span>
            <TaskStatusBadge status={plan.status} />
          </span>
        }
        description={`${labels.cycle(plan.cycle)} · ${t('activities:task.periodRange', { start: plan.startDate, end: plan.endDate })}`}
        back={{ safe: true }}
      />
      <Card>
        <CardContent className="grid gap-3 text-sm md:grid-cols-2">
          <div>
            <div className="text-muted-foreground">{t('activities:task.items')}</div>
            <ItemTargets items={plan.items} />
          </div>
          <div>
            <div className="text-muted-foreground">{t('source')}</div>
            {plan.sourceItem && plan.sourceLevel
              ? t('sourceText', { plan: plan.sourcePlanName ?? t('latestResults'), item: labels.item(plan.sourceItem), level: t(`levels.${plan.sourceLevel}`) })
              : t('activities:task.none')}
            <div className="mt-2 text-muted-foreground">{t('summary', { students: plan.studentCount, sessions: plan.sessionCount, reached: plan.reachedCount })}</div>
          </div>
        </CardContent>
      </Card>
      <Tabs defaultValue={tab}>
        <TabsList>
          <TabsTrigger value="progress">{t('progress')}</TabsTrigger>
          <TabsTrigger value="sessions">{t('sessionList')}</TabsTrigger>
        </TabsList>
        <TabsContent value="progress">
          <Card>
            <CardContent>
              <DataTable columns={progressColumns} data={progress.data?.records} rowKey="studentId" loading={progress.isPending} pagination={progressPaging.pagination(progress.data?.total ?? 0)} aria-label={t('progress')} />
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="sessions">
          <Card>
            <CardContent>
              <DataTable columns={sessionColumns} data={sessions.data?.records} rowKey="id" loading={sessions.isPending} pagination={sessionPaging.pagination(sessions.data?.total ?? 0)} aria-label={t('sessionList')} />
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>
    </div>
  );
}
