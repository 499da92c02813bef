import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { ClipboardPlus, MessageSquarePlus, Pencil, Settings2 } from 'lucide-react';
import { localDate } from '@/domain/dates';
import { TASK_CYCLE_TABLE } from '@/domain/homework/homework';
import { enumOptions } from '@/domain/presentation';
import { gradeNameKey } from '@/domain/school/grade-name';
import {
  CASE_ACTION_TABLE,
  CASE_FILTER_TABLE,
  CASE_STATUS_TABLE,
  caseActionSchema,
  caseListQuery,
  caseOpenSchema,
  caseSaveSchema,
  caseTrainingListQuery,
  caseTrainingSchema,
  WARNING_BMI_BAND_TABLE,
  WARNING_KIND_TABLE,
  warningDetailText,
  warningListQuery,
  warningSettingsSchema,
  type CaseDetail,
  type CaseRow,
  type CaseTrainingRow,
  type WarningRow,
} from '@/domain/warnings/warnings';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { EnumBadge } from '@/components/enum-badge/enum-badge';
import { FormDialog } from '@/components/form/form-dialog';
import { CheckboxGroupField, DateField, FieldGroup, RadioField, SelectField, TextareaField, TextField } from '@/components/form/fields';
import { TaskItemsField } from '@/components/activities/task-items-field';
import { LinkedListScreen } from '@/components/list/linked-list-screen';
import { ListScreen, type FilterDef, type ListView } from '@/components/list/list-screen';
import type { ActionDialogProps, PageActions } from '@/components/list/page-actions';
import { useListState } from '@/components/list/use-list-state';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useDateTime } from '@/lib/date-time';
import {
  exportWarnings,
  useCaseAction,
  useCaseTraining,
  useOpenCase,
  useSaveCase,
  useSaveSettings,
  useWarningOptions,
  useWarnings,
  useWarningSettings,
  warningKey,
  warningResource,
  type WarningFamily,
} from '../api';

type Filters = { schoolYear?: string; gradeNo?: string; classId?: string; kind?: string; caseStatus?: string };
const col = createDataTableColumnHelper<WarningRow>();

/**
 * physiqueManage/warning (docs/product-rules.md#warnings): the school year's warnings, one row per student and kind,
 * filtered by year, grade, class, kind and follow-up; the thresholds dialog (setting), the export, and a warning's
 * case (followUp).
 */
export function WarningListScreen({ family }: { family: WarningFamily }) {
  const { t } = useTranslation('warnings');
  const [params] = useSearchParams();
  const views = useMemo(() => [{ value: 'warnings', label: t('tab.warnings') }, { value: 'cases', label: t('tab.cases'), hint: t('tab.casesHint') }], [t]);
  return params.get('view') === 'cases' ? <CaseList family={family} views={views} /> : <WarningList family={family} views={views} />;
}

const VIEWS = ['warnings', 'cases'];

function WarningList({ family, views }: { family: WarningFamily; views: ListView[] }) {
  const { t } = useTranslation(['warnings', 'physique', 'school']);
  const key = warningKey(family);
  const state = useListState<Filters>(['schoolYear', 'gradeNo', 'classId', 'kind', 'caseStatus'], { views: VIEWS });
  const query = useWarnings(family, state.query);
  const options = useWarningOptions(family).data;
  const filters: FilterDef<Filters>[] = [
    { name: 'schoolYear', type: 'select', label: t('filter.schoolYear'), options: (options?.schoolYears ?? []).map((y) => ({ value: String(y.schoolYear), label: y.academicYear })) },
    { name: 'gradeNo', type: 'select', label: t('filter.grade'), options: (options?.grades ?? []).map((g) => ({ value: String(g), label: t(gradeNameKey(g)) })) },
    {
      name: 'classId',
      type: 'select',
      label: t('filter.class'),
      options: (options?.classes ?? []).filter((c) => !state.filters.gradeNo || String(c.gradeNo) === state.filters.gradeNo).map((c) => ({ value: c.id, label: c.name })),
    },
    { name: 'kind', type: 'select', label: t('filter.kind'), options: enumOptions(WARNING_KIND_TABLE, t) },
    { name: 'caseStatus', type: 'select', label: t('filter.caseStatus'), options: enumOptions(CASE_FILTER_TABLE, t) },
  ];
  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: t('col.student'),
          cell: ({ row }) => (
            <span className="whitespace-nowrap">
              {row.original.name}
              <span className="ml-2 text-xs text-muted-foreground tabular-nums">{row.original.regNo}</span>
            </span>
          ),
        }),
        col.accessor('className', { header: t('col.class'), meta: { className: 'whitespace-nowrap' } }),
        col.accessor('kind', { header: t('col.kind'), cell: ({ getValue }) => <EnumBadge table={WARNING_KIND_TABLE} value={getValue()} /> }),
        col.display({
          id: 'detail',
          header: t('col.detail'),
          cell: ({ row }) =>
            row.original.kind === 'bmi' && row.original.bmiBand ? (
              <span className="flex items-center gap-2">
                <EnumBadge table={WARNING_BMI_BAND_TABLE} value={row.original.bmiBand} />
                <span className="tabular-nums">{row.original.bmi?.toFixed(1)}</span>
              </span>
            ) : (
              warningDetailText(row.original, t)
            ),
        }),
        col.accessor('caseStatus', {
          header: t('col.case'),
          cell: ({ getValue }) => {
            const v = getValue();
            return v ? <EnumBadge table={CASE_STATUS_TABLE} value={v} data-testid="case-status" /> : <span className="text-muted-foreground">{t('caseFilter.none')}</span>;
          },
        }),
        col.accessor('assignedTeacherName', { header: t('col.teacher'), cell: ({ getValue }) => getValue() ?? '—' }),
      ]),
    [t],
  );
  const actions: PageActions<WarningRow> = {
    settings: { button: 'setting', where: 'toolbar', icon: <Settings2 aria-hidden />, dialog: (p) => <SettingsDialog family={family} {...p} /> },
    followUp: {
      button: 'followUp',
      icon: <ClipboardPlus aria-hidden />,
      dialog: (p) => (p.rows[0].caseId ? <CaseDialog family={family} caseId={p.rows[0].caseId} open={p.open} onOpenChange={p.onOpenChange} /> : <OpenCaseDialog family={family} {...p} />),
    },
  };
  return (
    <ListScreen
      pageKey={key}
      description={t('description')}
      state={state}
      querySchema={warningListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onExport={(f) => exportWarnings(family, f)}
      exportLayout="list"
      actions={actions}
      views={views}
      data-testid="warning-list"
    />
  );
}

type CaseFilters = { status?: string; kind?: string };
const caseCol = createDataTableColumnHelper<CaseRow>();

/** Every case of the school (its warning may no longer hold), newest first. */
function CaseList({ family, views }: { family: WarningFamily; views: ListView[] }) {
  const { t } = useTranslation('warnings');
  const state = useListState<CaseFilters>(['status', 'kind'], { views: VIEWS });
  const query = warningResource(family).useList(state.query);
  const dateTime = useDateTime();
  const filters: FilterDef<CaseFilters>[] = [
    { name: 'status', type: 'select', label: t('case.status'), options: enumOptions(CASE_STATUS_TABLE, t) },
    { name: 'kind', type: 'select', label: t('filter.kind'), options: enumOptions(WARNING_KIND_TABLE, t) },
  ];
  const columns = useMemo(
    () =>
      caseCol.columns([
        caseCol.accessor('studentName', {
          header: t('col.student'),
          cell: ({ row }) => (
            <span className="whitespace-nowrap">
              {row.original.studentName}
              <span className="ml-2 text-xs text-muted-foreground tabular-nums">{row.original.regNo}</span>
            </span>
          ),
        }),
        caseCol.accessor('className', { header: t('col.class'), meta: { className: 'whitespace-nowrap' } }),
        caseCol.accessor('academicYear', { header: t('filter.schoolYear'), meta: { className: 'whitespace-nowrap' } }),
        caseCol.accessor('kind', { header: t('col.kind'), cell: ({ getValue }) => <EnumBadge table={WARNING_KIND_TABLE} value={getValue()} /> }),
        caseCol.display({ id: 'detail', header: t('col.detail'), cell: ({ row }) => warningDetailText({ kind: row.original.kind, ...row.original.detail }, t) }),
        caseCol.accessor('status', { header: t('col.case'), cell: ({ getValue }) => <EnumBadge table={CASE_STATUS_TABLE} value={getValue()} /> }),
        caseCol.accessor('assignedTeacherName', { header: t('col.teacher'), cell: ({ getValue }) => getValue() ?? '—' }),
        caseCol.accessor('openedAt', { header: t('col.openedAt'), meta: { className: 'whitespace-nowrap' }, cell: ({ getValue }) => dateTime(getValue()) }),
      ]),
    [t, dateTime],
  );
  const actions: PageActions<CaseRow> = {
    followUp: { button: 'followUp', icon: <ClipboardPlus aria-hidden />, dialog: (p) => <CaseDialog family={family} caseId={p.rows[0].id} open={p.open} onOpenChange={p.onOpenChange} /> },
  };
  return (
    <ListScreen
      pageKey={warningKey(family)}
      description={t('description')}
      state={state}
      querySchema={caseListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      actions={actions}
      views={views}
      data-testid="case-list"
    />
  );
}

/** The organisation's thresholds (versioned: a stale form is refused). */
function SettingsDialog({ family, open, onOpenChange, done }: { family: WarningFamily } & ActionDialogProps<WarningRow>) {
  const { t } = useTranslation('warnings');
  const current = useWarningSettings(family, open);
  const save = useSaveSettings(family);
  const s = current.data;
  if (!s) return null;
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={warningSettingsSchema}
      defaults={{ declinePoints: String(s.declinePoints), bmiBands: s.bmiBands, failingItem: String(s.failingItem), missing: String(s.missing), version: s.version }}
      title={t('settings.title')}
      description={s.version === 0 ? `${t('settings.description')} ${t('settings.defaults')}` : t('settings.description')}
      submit={(body) => save.mutateAsync(body)}
      success={t('settings.saved')}
      onDone={done}
      data-testid="warning-settings"
    >
      {() => (
        <FieldGroup>
          <TextField name="declinePoints" label={t('settings.declinePoints')} required inputMode="numeric" description={t('settings.declineHint')} />
          <CheckboxGroupField name="bmiBands" label={t('settings.bmiBands')} options={enumOptions(WARNING_BMI_BAND_TABLE, t)} />
          <RadioField name="failingItem" label={t('settings.failingItem')} options={yesNo(t)} />
          <RadioField name="missing" label={t('settings.missing')} options={yesNo(t)} />
        </FieldGroup>
      )}
    </FormDialog>
  );
}

const yesNo = (t: (k: string) => string) => [
  { value: 'true', label: t('settings.on') },
  { value: 'false', label: t('settings.off') },
];

/** A warning becomes a case: the teacher who follows it up and a first note. */
function OpenCaseDialog({ family, rows, open, onOpenChange, done }: { family: WarningFamily } & ActionDialogProps<WarningRow>) {
  const { t } = useTranslation('warnings');
  const [row] = rows;
  const openCase = useOpenCase(family);
  const options = useWarningOptions(family).data;
  const [opened, setOpened] = useState<string | null>(null);
  if (opened) return <CaseDialog family={family} caseId={opened} open={open} onOpenChange={onOpenChange} />;
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      schema={caseOpenSchema}
      defaults={{ studentId: row.studentId, kind: row.kind, assignedTeacherId: '', note: '' }}
      title={t('case.openTitle', { name: row.name })}
      description={`${row.className} · ${t(`kind.${row.kind}`)} · ${warningDetailText(row, t)}`}
      submit={(body) => openCase.mutateAsync(body)}
      success={t('case.opened')}
      onDone={(made) => {
        done();
        setOpened(made.id);
      }}
      submitText={t('case.open')}
      data-testid="case-open"
    >
      {() => (
        <FieldGroup>
          <SelectField name="assignedTeacherId" label={t('case.teacher')} options={(options?.teachers ?? []).map((p) => ({ value: p.id, label: p.name }))} clearable />
          <TextareaField name="note" label={t('case.note')} />
        </FieldGroup>
      )}
    </FormDialog>
  );
}

/** A case: what warned, who follows it up, its state, its training plans and its history; each change in a small form. */
export function CaseDialog({ family, caseId, open, onOpenChange }: { family: WarningFamily; caseId: string; open: boolean; onOpenChange(open: boolean): void }) {
  const { t } = useTranslation(['warnings', 'menus']);
  const query = warningResource(family).useGet(caseId);
  const [editing, setEditing] = useState<'case' | 'action' | 'training' | null>(null);
  const dateTime = useDateTime();
  const c = query.data;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-4xl" data-testid="case-dialog">
        <DialogHeader>
          <DialogTitle>{t('case.title', { name: c?.studentName ?? '' })}</DialogTitle>
          <DialogDescription>{c ? `${c.className} · ${c.regNo} · ${c.academicYear}` : ''}</DialogDescription>
        </DialogHeader>
        <QueryState query={query} data={c}>
          {(c: CaseDetail) => (
            <div className="grid gap-5">
              <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 rounded-md border p-4 text-sm">
                <dt className="text-muted-foreground">{t('case.warning')}</dt>
                <dd className="flex flex-wrap items-center gap-2">
                  <EnumBadge table={WARNING_KIND_TABLE} value={c.kind} />
                  {warningDetailText({ kind: c.kind, ...c.detail }, t)}
                </dd>
                <dt className="text-muted-foreground">{t('case.status')}</dt>
                <dd>
                  <EnumBadge table={CASE_STATUS_TABLE} value={c.status} data-testid="case-dialog-status" />
                </dd>
                <dt className="text-muted-foreground">{t('case.teacher')}</dt>
                <dd>{c.assignedTeacherName ?? t('case.noTeacher')}</dd>
              </dl>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" size="sm" onClick={() => setEditing('case')} data-testid="case-edit">
                  <Pencil aria-hidden />
                  {t('case.status')} / {t('case.teacher')}
                </Button>
                <Button variant="outline" size="sm" onClick={() => setEditing('action')} data-testid="case-action">
                  <MessageSquarePlus aria-hidden />
                  {t('case.addAction')}
                </Button>
                {family === 'k12' ? (
                  <Button variant="outline" size="sm" onClick={() => setEditing('training')} data-testid="case-training">
                    <ClipboardPlus aria-hidden />
                    {t('case.createTraining')}
                  </Button>
                ) : null}
              </div>
              {family === 'k12' ? <CaseTrainings family={family} caseId={c.id} /> : null}
              <section aria-labelledby="case-history">
                <h3 id="case-history" className="mb-2 text-sm font-semibold">
                  {t('case.history')}
                </h3>
                <ol className="grid gap-2 border-l pl-4" data-testid="case-history">
                  {c.events.map((e) => (
                    <li key={e.id} className="text-sm">
                      <span className="font-medium">{t(`event.${e.kind}`)}</span>
                      {e.detail ? <span>{t('case.eventDetail', { detail: e.detail })}</span> : null}
                      {e.note ? <p className="text-muted-foreground">{e.note}</p> : null}
                      <p className="text-xs text-muted-foreground">
                        {e.byName ?? '—'} · {dateTime(e.at)}
                      </p>
                    </li>
                  ))}
                </ol>
              </section>
              {editing === 'case' ? <EditCaseDialog family={family} c={c} onClose={() => setEditing(null)} /> : null}
              {editing === 'action' ? <ActionDialog family={family} c={c} onClose={() => setEditing(null)} /> : null}
              {editing === 'training' ? <TrainingDialog family={family} c={c} onClose={() => setEditing(null)} /> : null}
            </div>
          )}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}

const trainingCol = createDataTableColumnHelper<CaseTrainingRow>();

/** The case's special-training plans: linked records (the training module's plans the student is in). */
function CaseTrainings({ family, caseId }: { family: WarningFamily; caseId: string }) {
  const { t } = useTranslation('warnings');
  const state = useListState<Record<string, never>>([]);
  const columns = useMemo(
    () =>
      trainingCol.columns([
        trainingCol.accessor('name', { header: t('case.trainingName') }),
        trainingCol.display({ id: 'period', header: `${t('case.startDate')} – ${t('case.endDate')}`, cell: ({ row }) => `${row.original.startDate} – ${row.original.endDate}` }),
      ]),
    [t],
  );
  return (
    <LinkedListScreen<CaseTrainingRow, Record<string, never>, CaseTrainingRow>
      pageKey={warningKey(family)}
      action="followUp"
      owner={caseId}
      linked={{ path: 'trainings', ids: 'trainingPlanIds' }}
      state={state}
      querySchema={caseTrainingListQuery}
      filters={[]}
      columns={columns}
      rowKey="id"
      section={{ title: t('case.trainings') }}
      actionsHeader={t('components:list.actions')}
      remove={{ label: t('case.unlink'), confirm: (r) => ({ title: t('case.unlinkTitle', { name: r.name }) }), done: t('case.unlinked') }}
      add={{
        label: t('case.link'),
        done: (n) => t('case.linked', { count: n }),
        dialog: {
          description: t('case.pickTrainings'),
          searchLabel: t('case.trainingName'),
          emptyText: t('case.noCandidates'),
          candidateKey: (p) => p.id,
          renderCandidate: (p) => `${p.name}（${p.startDate} – ${p.endDate}）`,
          'data-testid': 'case-training-link',
        },
      }}
      data-testid="case-trainings"
    />
  );
}

function EditCaseDialog({ family, c, onClose }: { family: WarningFamily; c: CaseDetail; onClose(): void }) {
  const { t } = useTranslation('warnings');
  const save = useSaveCase(family);
  const options = useWarningOptions(family).data;
  return (
    <FormDialog
      open
      onOpenChange={(o) => (o ? undefined : onClose())}
      schema={caseSaveSchema}
      defaults={{ assignedTeacherId: c.assignedTeacherId ?? '', status: c.status, note: '', version: c.version }}
      title={t('case.title', { name: c.studentName })}
      submit={(body) => save.mutateAsync({ id: c.id, ...body })}
      success={t('case.saved')}
      onDone={onClose}
      data-testid="case-edit-dialog"
    >
      {() => (
        <FieldGroup>
          <SelectField name="assignedTeacherId" label={t('case.teacher')} options={(options?.teachers ?? []).map((p) => ({ value: p.id, label: p.name }))} clearable />
          <RadioField name="status" label={t('case.status')} required options={enumOptions(CASE_STATUS_TABLE, t)} />
          <TextareaField name="note" label={t('case.closeNote')} />
        </FieldGroup>
      )}
    </FormDialog>
  );
}

function ActionDialog({ family, c, onClose }: { family: WarningFamily; c: CaseDetail; onClose(): void }) {
  const { t } = useTranslation('warnings');
  const act = useCaseAction(family);
  return (
    <FormDialog
      open
      onOpenChange={(o) => (o ? undefined : onClose())}
      schema={caseActionSchema}
      defaults={{ kind: 'parentContacted', note: '', version: c.version }}
      title={t('case.addAction')}
      submit={(body) => act.mutateAsync({ id: c.id, ...body })}
      success={t('case.actionSaved')}
      onDone={onClose}
      data-testid="case-action-dialog"
    >
      {() => (
        <FieldGroup>
          <RadioField name="kind" label={t('case.actionKind')} required options={enumOptions(CASE_ACTION_TABLE, t)} />
          <TextareaField name="note" label={t('case.actionNote')} required />
        </FieldGroup>
      )}
    </FormDialog>
  );
}

/** A special-training plan for the student alone, made by the training module and linked to the case. */
function TrainingDialog({ family, c, onClose }: { family: WarningFamily; c: CaseDetail; onClose(): void }) {
  const { t } = useTranslation(['warnings', 'activities']);
  const make = useCaseTraining(family);
  const [now] = useState(() => Date.now());
  const item = c.detail.items?.find((i) => i === 'rope1min' || i === 'sitUp1min' || i === 'pullUp') ?? 'rope1min';
  return (
    <FormDialog
      open
      onOpenChange={(o) => (o ? undefined : onClose())}
      schema={caseTrainingSchema}
      defaults={{
        name: t('case.createTraining').slice(0, 20),
        cycle: 'daily',
        startDate: localDate(new Date(now)),
        endDate: localDate(new Date(now + 27 * 86_400_000)),
        items: [{ item, target: '', intensity: 'medium' }],
      }}
      title={t('case.createTraining')}
      description={c.studentName}
      submit={(body) => make.mutateAsync({ id: c.id, ...body })}
      success={t('case.trainingCreated')}
      onDone={onClose}
      className="sm:max-w-2xl"
      data-testid="case-training-dialog"
    >
      {() => (
        <FieldGroup>
          <TextField name="name" label={t('case.trainingName')} required />
          <RadioField name="cycle" label={t('activities:task.cycle.label')} required options={enumOptions(TASK_CYCLE_TABLE, t)} />
          <DateField name="startDate" label={t('case.startDate')} required />
          <DateField name="endDate" label={t('case.endDate')} required />
          <TaskItemsField />
        </FieldGroup>
      )}
    </FormDialog>
  );
}
