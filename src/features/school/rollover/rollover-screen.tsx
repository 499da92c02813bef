import { useCallback, useMemo, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, Trash2, Undo2 } from 'lucide-react';
import { useFieldArray, useForm, useFormContext, useWatch, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useListFormat } from '@/lib/list-format';
import { CLASS_NAME_MAX } from '@/domain/school/classes';
import { defaultSchoolYear, SEMESTER_KEYS } from '@/domain/school/school-years';
import {
  rolloverCommitSchema,
  ROLLOVER_ENTERING_MAX,
  type RolloverCommit,
  type RolloverCommitForm,
  type RolloverGraduation,
  type RolloverMove,
  type RolloverPreview,
  type RolloverSummary,
} from '@/domain/school/rollover';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { DateField, FieldGroup, FormSchema, TextField } from '@/components/form/fields';
import { Form } from '@/components/form/form';
import { PageHeader } from '@/components/page-header/page-header';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Label } from '@/components/ui/label';
import { toast } from '@/lib/toast';
import { ApiError } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import type { SchoolFamily } from '@/domain/menus/access';
import { useFollowJob } from '@/components/jobs/api';
import { JobProgress } from '@/components/jobs/job-progress';
import type { JobRow } from '@/domain/jobs';
import { useCommitRollover, useLastRollover, useRolloverPreview, useRolloverRefresh, useUndoRollover } from './api';
import { formatDateTime } from '@/lib/date-time';
import { gradeNameKey } from '@/domain/school/grade-name';

const STEPS = ['year', 'preview', 'confirm'] as const;
type Step = (typeof STEPS)[number];

const moveCol = createDataTableColumnHelper<RolloverMove>();
const gradCol = createDataTableColumnHelper<RolloverGraduation>();

/** The form's values from a preview: the year's default dates when it must be created, the default entering classes. */
function defaultsOf(p: RolloverPreview): RolloverCommitForm {
  return {
    academicYear: p.to.academicYear,
    year: p.to.exists ? undefined : defaultSchoolYear(p.to.startYear),
    renameClasses: true,
    entering: p.entering.map((e) => ({ stage: e.stage, classes: e.classes.map((c) => ({ code: c.code, name: c.name })) })),
  };
}

/** The step holding a field the server refused. */
const stepOfField = (field: string): Step => (field.startsWith('entering') || field === 'renameClasses' ? 'preview' : 'year');

/**
 * org/acayear/rollover (docs/product-rules.md#year-rollover): pick the new school year (created with its semesters
 * when missing), preview every class moving up, the graduating grades and the entering classes (editable), confirm;
 * the last rollover can be undone from here while nothing depends on it.
 */
export function RolloverScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation(['people', 'jobs']);
  const access = usePageAccess(`${family}.org.acayear`);
  const preview = useRolloverPreview(family);
  const refresh = useRolloverRefresh(family);
  // The rollover runs as a job: its bar shows here (the wizard starts over once the preview reloads), and the screen
  // reloads when it is done.
  const onFinished = useCallback(
    (job: JobRow) => {
      if (job.state === 'done') {
        void refresh();
        toast.success(t('rollover.done'));
      } else toast.warning(job.error ?? t('jobs:error.unexpected'));
    },
    [refresh, t],
  );
  const follow = useFollowJob('rollover', onFinished);
  return (
    <div className="flex flex-col gap-4" data-testid="rollover-screen">
      <PageHeader title={t('rollover.title')} description={t(family === 'gx' ? 'rollover.descriptionUniversity' : 'rollover.description')} back={{ safe: true }} className="pb-0" />
      {follow.job ? (
        <Card className="gap-2 py-4">
          <CardContent className="grid gap-2">
            <JobProgress job={follow.job} />
            {follow.working ? <p className="text-xs text-muted-foreground">{t('jobs:leaveHintResult')}</p> : null}
          </CardContent>
        </Card>
      ) : null}
      <LastRollover family={family} />
      <QueryState query={preview} data={preview.data}>
        {(p) => (
          <RolloverWizard key={`${p.from.startYear}:${p.to.exists}`} family={family} preview={p} listPath={access.paths.list} working={follow.working} onStarted={follow.start} />
        )}
      </QueryState>
    </div>
  );
}

function LastRollover({ family }: { family: SchoolFamily }) {
  const { t, i18n } = useTranslation('people');
  const last = useLastRollover(family);
  const undo = useUndoRollover(family);
  const [asking, setAsking] = useState(false);
  const r: RolloverSummary | null | undefined = last.data;
  if (!r) return null;
  const at = formatDateTime(r.createdAt, i18n.language);
  return (
    <Card className="gap-2 py-4" data-testid="rollover-last">
      <CardContent className="flex flex-wrap items-center justify-between gap-3">
        <p className="flex flex-wrap gap-x-2 text-sm">
          <span className="font-medium">{t('rollover.last')}</span>
          {t('rollover.lastText', { at, from: r.fromYear, to: r.toYear, moved: r.moved, graduated: r.graduated, classes: r.enteringClasses })}
          {r.undoneAt ? <span className="text-muted-foreground">{t('rollover.undone')}</span> : null}
        </p>
        {r.undoneAt ? null : (
          <Button variant="outline" onClick={() => setAsking(true)} data-testid="rollover-undo">
            <Undo2 aria-hidden />
            {t('rollover.undo')}
          </Button>
        )}
      </CardContent>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        destructive
        title={t('rollover.undoTitle', { from: r.fromYear, to: r.toYear })}
        description={t('rollover.undoText')}
        onConfirm={async () => {
          try {
            await undo.mutateAsync(undefined);
            toast.success(t('rollover.undoDone'));
          } catch (error) {
            toast.warning(error instanceof Error ? error.message : String(error));
          }
        }}
      />
    </Card>
  );
}

function Stepper({ step }: { step: Step }) {
  const { t } = useTranslation('people');
  const at = STEPS.indexOf(step);
  return (
    <ol className="flex flex-wrap items-center gap-2 text-sm" aria-label={t('rollover.stepOf', { n: at + 1, total: STEPS.length })}>
      {STEPS.map((s, i) => (
        <li key={s} aria-current={s === step ? 'step' : undefined} className="flex items-center gap-2">
          {i > 0 ? <span aria-hidden className="h-px w-8 bg-border" /> : null}
          <span
            className={cn(
              'flex size-6 items-center justify-center rounded-full border text-xs font-medium tabular-nums',
              i < at && 'border-primary bg-primary/10 text-primary',
              i === at && 'border-primary bg-primary text-primary-foreground',
              i > at && 'text-muted-foreground',
            )}
          >
            {i + 1}
          </span>
          <span className={i === at ? 'font-medium' : 'text-muted-foreground'}>{t(`rollover.steps.${s}`)}</span>
        </li>
      ))}
    </ol>
  );
}

function RolloverWizard({
  family,
  preview: p,
  working,
  onStarted,
}: {
  family: SchoolFamily;
  preview: RolloverPreview;
  listPath: string;
  /** A rollover job of this school is running: no second commit. */
  working: boolean;
  onStarted: (jobId: string) => void;
}) {
  const { t } = useTranslation(['people', 'ui']);
  const [step, setStep] = useState<Step>('year');
  const commit = useCommitRollover(family);
  const form = useForm<RolloverCommitForm, unknown, RolloverCommit>({ resolver: zodResolver(rolloverCommitSchema), defaultValues: defaultsOf(p), mode: 'onTouched' });
  const values = useWatch({ control: form.control }) as RolloverCommitForm;
  const gradeName = (no: number) => t(gradeNameKey(no), { defaultValue: t('rollover.gradeName', { no }) });

  const next = async () => {
    const fields = step === 'year' ? (['academicYear', 'year'] as const) : (['entering', 'renameClasses'] as const);
    if (await form.trigger([...fields] as Path<RolloverCommitForm>[], { shouldFocus: true })) setStep(step === 'year' ? 'preview' : 'confirm');
  };

  const submit = async (body: RolloverCommit) => {
    try {
      onStarted((await commit.mutateAsync(body)).id);
    } catch (error) {
      const e = error instanceof ApiError ? error : null;
      if (e?.field && e.status === 400) {
        setStep(stepOfField(e.field));
        form.setError(e.field as Path<RolloverCommitForm>, { type: 'server', message: e.message }, { shouldFocus: true });
      } else toast.warning(e?.message ?? String(error));
    }
  };

  const enteringCount = (values.entering ?? []).reduce((n, e) => n + (e?.classes?.length ?? 0), 0);
  const graduates = p.graduating.reduce((n, g) => n + g.students, 0);

  return (
    <Form {...(form as unknown as UseFormReturn<FieldValues>)}>
      <FormSchema value={rolloverCommitSchema}>
        <form noValidate onSubmit={(e) => void form.handleSubmit(submit)(e)} className="flex flex-col gap-4" data-testid={`rollover-step-${step}`}>
          <Stepper step={step} />
          <Card>
            <CardHeader>
              <CardTitle>
                <span className="tabular-nums" data-testid="rollover-years">
                  {t('rollover.from')} {p.from.academicYear} → {t('rollover.to')} {p.to.academicYear}
                </span>
              </CardTitle>
              <CardDescription>{t(`rollover.steps.${step}`)}</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col gap-6">
              {step === 'year' ? <YearStep preview={p} /> : null}
              {step === 'preview' ? <PreviewStep family={family} preview={p} gradeName={gradeName} rename={values.renameClasses !== false} /> : null}
              {step === 'confirm' ? (
                <div className="flex flex-col gap-2 text-sm" data-testid="rollover-summary">
                  <p className="font-medium">
                    {t('rollover.summary', { moved: new Set(p.moves.map((m) => m.gradeId)).size, graduated: p.graduating.length, students: graduates, classes: enteringCount, to: p.to.academicYear })}
                  </p>
                  <p className="text-muted-foreground">{t('rollover.confirmHint')}</p>
                </div>
              ) : null}
            </CardContent>
            <CardFooter className="justify-end gap-2">
              {step !== 'year' ? (
                <Button key="back" type="button" variant="outline" onClick={() => setStep(STEPS[STEPS.indexOf(step) - 1])} data-testid="rollover-back">
                  {t('rollover.back')}
                </Button>
              ) : null}
              {step === 'confirm' ? (
                // Own keys: the Next button must not become this submit button while its click is still being handled.
                <Button key="commit" type="submit" loading={commit.isPending || working} data-testid="rollover-commit">
                  {t('rollover.commit')}
                </Button>
              ) : (
                <Button key="next" type="button" onClick={() => void next()} data-testid="rollover-next">
                  {t('rollover.next')}
                </Button>
              )}
            </CardFooter>
          </Card>
        </form>
      </FormSchema>
    </Form>
  );
}

function YearStep({ preview: p }: { preview: RolloverPreview }) {
  const { t } = useTranslation(['people', 'school']);
  if (p.to.exists)
    return (
      <div className="flex flex-col gap-2 text-sm">
        <p>{t('rollover.yearExists')}</p>
        <ul className="flex flex-col gap-1 tabular-nums text-muted-foreground">
          {p.to.semesters.map((s) => (
            <li key={s.code}>
              {t(s.code === 13 ? 'school:year.autumn' : 'school:year.spring')} {s.startDate} ~ {s.endDate}
            </li>
          ))}
        </ul>
      </div>
    );
  return (
    <>
      <p className="text-sm">{t('rollover.yearCreate')}</p>
      {SEMESTER_KEYS.map((k) => (
        <FieldGroup key={k} title={t(`school:year.${k}`)} className="md:grid-cols-4">
          <DateField name={`year.${k}.startDate`} label={t('school:year.startDate')} required />
          <DateField name={`year.${k}.endDate`} label={t('school:year.endDate')} required />
          <DateField name={`year.${k}.breakStart`} label={t(k === 'autumn' ? 'school:year.winterStart' : 'school:year.summerStart')} />
          <DateField name={`year.${k}.breakEnd`} label={t(k === 'autumn' ? 'school:year.winterEnd' : 'school:year.summerEnd')} />
        </FieldGroup>
      ))}
    </>
  );
}

function PreviewStep({ family, preview: p, gradeName, rename }: { family: SchoolFamily; preview: RolloverPreview; gradeName(no: number): string; rename: boolean }) {
  const { t } = useTranslation('people');
  const list = useListFormat();
  const renames = p.moves.some((m) => m.newName !== m.name);
  const moveColumns = useMemo(
    () =>
      moveCol.columns([
        moveCol.accessor('name', { header: t('rollover.class'), meta: { width: 160 }, cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }),
        moveCol.accessor('fromGrade', { header: t('rollover.fromGrade'), meta: { width: 110 }, cell: ({ getValue }) => gradeName(getValue()) }),
        moveCol.accessor('toGrade', { header: t('rollover.toGrade'), meta: { width: 110 }, cell: ({ getValue }) => <span className="font-medium">{gradeName(getValue())}</span> }),
        // Only when some name follows its grade (school class names like 一年级1班; university names carry no grade).
        ...(renames ? [moveCol.accessor('newName', { header: t('rollover.newName'), meta: { width: 160 }, cell: ({ row }) => (rename ? row.original.newName : row.original.name) })] : []),
        moveCol.accessor('students', { header: t('rollover.students'), meta: { width: 90, align: 'right' }, cell: ({ getValue }) => <span className="tabular-nums">{getValue()}</span> }),
      ]),
    [t, gradeName, rename, renames],
  );
  const gradColumns = useMemo(
    () =>
      gradCol.columns([
        gradCol.accessor('gradeNo', { header: t('rollover.grade'), meta: { width: 110 }, cell: ({ getValue }) => <span className="font-medium">{gradeName(getValue())}</span> }),
        gradCol.accessor('enrolYear', { header: t('rollover.enrolYear'), meta: { width: 100 }, cell: ({ getValue }) => <span className="tabular-nums">{getValue()}</span> }),
        gradCol.display({ id: 'classes', header: t('rollover.classes'), meta: { width: 360 }, cell: ({ row }) => list(row.original.classes.map((c) => c.name)) }),
        gradCol.accessor('students', { header: t('rollover.graduateStudents'), meta: { width: 110, align: 'right' }, cell: ({ getValue }) => <span className="tabular-nums">{getValue()}</span> }),
      ]),
    [t, gradeName, list],
  );
  return (
    <>
      {renames ? <RenameField /> : null}
      <section className="flex flex-col gap-2" aria-labelledby="rollover-moves">
        <h2 id="rollover-moves" className="text-base font-semibold">
          {t('rollover.moves')} <span className="text-sm font-normal text-muted-foreground tabular-nums">({p.moves.length})</span>
        </h2>
        <DataTable columns={moveColumns} data={p.moves} rowKey="classId" aria-label={t('rollover.moves')} empty={t('rollover.noneMoves')} />
      </section>
      <section className="flex flex-col gap-2" aria-labelledby="rollover-graduating">
        <h2 id="rollover-graduating" className="text-base font-semibold">
          {t('rollover.graduating')}
        </h2>
        <DataTable columns={gradColumns} data={p.graduating} rowKey="gradeId" aria-label={t('rollover.graduating')} />
      </section>
      <section className="flex flex-col gap-3" aria-labelledby="rollover-entering">
        <h2 id="rollover-entering" className="text-base font-semibold">
          {t('rollover.entering')}
        </h2>
        {/* A university adds the new enrolment year and its classes (by college and major) on their own screens. */}
        {family === 'gx' ? <p className="text-sm text-muted-foreground">{t('rollover.enteringUniversity')}</p> : null}
        {p.entering.map((e, i) => (
          <EnteringClasses key={e.stage} index={i} title={t('rollover.enteringOf', { grade: gradeName(e.gradeNo), year: e.enrolYear })} />
        ))}
      </section>
    </>
  );
}

function RenameField() {
  const { t } = useTranslation('people');
  const form = useFormContext<RolloverCommitForm>();
  const value = useWatch({ control: form.control, name: 'renameClasses' });
  return (
    <div className="flex items-center gap-2">
      <Checkbox
        id="rollover-rename"
        checked={value !== false}
        onCheckedChange={(v) => form.setValue('renameClasses', v === true, { shouldDirty: true })}
        data-testid="rollover-rename"
      />
      <Label htmlFor="rollover-rename" className="font-normal">
        {t('rollover.renameClasses')}
      </Label>
    </div>
  );
}

/** The classes of one entering cohort: code and name rows, added and removed. */
function EnteringClasses({ index, title }: { index: number; title: string }) {
  const { t } = useTranslation('people');
  const form = useFormContext<RolloverCommitForm>();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: `entering.${index}.classes` });
  const rows = useWatch({ control: form.control, name: `entering.${index}.classes` }) ?? [];
  const nextCode = () => Math.min(ROLLOVER_ENTERING_MAX, rows.reduce((m, r) => Math.max(m, Number(r?.code) || 0), 0) + 1);
  return (
    <fieldset className="flex flex-col gap-2 rounded-md border p-3" data-testid={`rollover-entering-${index}`}>
      <legend className="px-1 text-sm font-medium">{title}</legend>
      {fields.map((f, j) => (
        <div key={f.id} className="grid grid-cols-[8rem_minmax(0,24rem)_auto] items-start gap-2">
          <TextField name={`entering.${index}.classes.${j}.code`} label={t('rollover.code')} type="number" inputMode="numeric" required />
          <TextField name={`entering.${index}.classes.${j}.name`} label={t('rollover.name')} maxLength={CLASS_NAME_MAX} required />
          <Button type="button" variant="ghost" size="icon" className="mt-6" aria-label={t('rollover.removeClass', { name: rows[j]?.name ?? '' })} onClick={() => remove(j)}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      ))}
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => append({ code: nextCode(), name: '' })} data-testid={`rollover-add-class-${index}`}>
          <Plus aria-hidden />
          {t('rollover.addClass')}
        </Button>
      </div>
    </fieldset>
  );
}
