import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { enumLabel, enumOptions } from '@/domain/presentation';
import { cohortGrade, ENROL_YEAR_MAX, ENROL_YEAR_MIN, GRADE_STAGE_TABLE, GRADE_STAGES, gradeListQuery, gradeSaveSchema, K12_STAGES, STAGE_GRADES, type GradeDetail, type GradeForm, type GradeStage } from '@/domain/school/grades';
import { gradeNameKey } from '@/domain/school/grade-name';
import { createDataTableColumnHelper } from '@/components/data-table/data-table';
import { CustomField, FieldGroup, RadioField, SelectField, TextField } from '@/components/form/fields';
import { FormControl } from '@/components/form/form';
import { cn } from '@/lib/cn';
import { FormScreen } from '@/components/form/form-screen';
import { ListScreen, type FilterDef } from '@/components/list/list-screen';
import { deleteAction, editAction, rowActionsColumn } from '@/components/list/row-actions';
import { useListState } from '@/components/list/use-list-state';
import { usePageAccess } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import { grades, useGradeOptions } from '../api';
import type { SchoolFamily } from '@/domain/menus/access';

const STAGE_FIELD = 'stage';
type Filters = { stage?: string; graduated?: string };
const col = createDataTableColumnHelper<GradeDetail>();

const stagesOf = (family: SchoolFamily): readonly GradeStage[] => (family === 'gx' ? ['university'] : K12_STAGES);
const numbersOf = (stage: GradeStage) => {
  const [lo, hi] = STAGE_GRADES[stage];
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
};

/** org/grade: a school's grades 1–12 by stage, or a university's enrolment years (docs/product-rules.md#grades). */
export function GradeListScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('school');
  const navigate = useNavigate();
  const key = `${family}.org.grade`;
  const access = usePageAccess(key);
  const api = grades(family);
  const state = useListState<Filters>(family === 'gx' ? ['graduated'] : ['stage', 'graduated']);
  const query = api.useList(state.query);
  const remove = api.useDelete();
  const name = (g: GradeDetail) => (g.stage === 'university' ? t('grade.cohort', { year: g.enrolYear }) : t('grade.named', { grade: t(gradeNameKey(g.gradeNo)), year: g.enrolYear }));

  const status = [
    { value: 'false', label: t('grade.inSchool') },
    { value: 'true', label: t('grade.graduated') },
  ];
  const filters: FilterDef<Filters>[] = [
    ...(family === 'k12' ? [{ name: 'stage', type: 'select', label: t('grade.stage'), options: enumOptions(GRADE_STAGE_TABLE, t, K12_STAGES) } as const] : []),
    { name: 'graduated', type: 'select', label: t('grade.status'), options: status },
  ];

  const columns = useMemo(
    () =>
      col.columns([
        col.display({ id: 'name', header: family === 'gx' ? t('grade.enrolYear') : t('grade.gradeNo'), cell: ({ row }) => <span className="font-medium">{name(row.original)}</span> }),
        // A university's cohort is named by its enrolment year, and it has one stage.
        ...(family === 'gx'
          ? []
          : [
              col.accessor('stage', { header: t('grade.stage'), cell: ({ getValue }) => enumLabel(GRADE_STAGE_TABLE, getValue(), t) }),
              col.accessor('enrolYear', { header: t('grade.enrolYear'), meta: { align: 'right' } }),
            ]),
        col.accessor('gradeNo', { header: t('grade.currentGrade'), cell: ({ getValue }) => t(gradeNameKey(getValue())) }),
        col.accessor('graduated', {
          header: t('grade.status'),
          cell: ({ getValue }) => <Badge variant={getValue() ? 'secondary' : 'success'}>{getValue() ? t('grade.graduated') : t('grade.inSchool')}</Badge>,
        }),
        col.accessor('classCount', { header: t('grade.classCount'), meta: { align: 'right' } }),
        rowActionsColumn<GradeDetail>({
          pageKey: key,
          header: t('components:list.actions'),
          actions: [
            editAction((r) => void navigate(access.paths.edit!(r.id))),
            deleteAction((r) => ({ title: t('grade.deleteTitle', { name: name(r) }), description: t('grade.deleteText') }), (r) => remove.mutateAsync(r.id)),
          ],
        }),
      ]),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- name() only reads t
    [t, key, family, navigate, access.paths, remove],
  );

  return (
    <ListScreen
      pageKey={key}
      state={state}
      querySchema={gradeListQuery}
      filters={filters}
      query={query}
      columns={columns}
      rowKey="id"
      onAdd={() => void navigate(access.paths.add!)}
      data-testid="grade-list"
    />
  );
}

/** org/grade/add and edit/:id: a drawer over the grade list (a short form). */
export function GradeFormScreen({ family }: { family: SchoolFamily }) {
  const { t } = useTranslation('school');
  const { id } = useParams();
  const access = usePageAccess(`${family}.org.grade`);
  const options = useGradeOptions(family);
  const stages = stagesOf(family);
  const gx = family === 'gx';
  const startYear = options.data?.currentStartYear;
  // A new school's first cohort enters in the current school year (its first grade).
  const defaults: GradeForm = { stage: stages[0], gradeNo: '' as unknown as number, enrolYear: startYear ?? new Date().getFullYear(), graduated: 'false' };
  if (!gx && options.isPending) return <GradeListScreen family={family} />;
  return (
    <>
      <GradeListScreen family={family} />
      <FormScreen
        presentation="drawer"
        schema={gradeSaveSchema}
        resource={grades(family)}
        id={id}
        defaults={defaults}
        // A school's grade is derived (server too), so the form sends none; a university's year of study is chosen.
        toValues={(r) => ({ stage: r.stage, gradeNo: gx ? String(r.gradeNo) : '', enrolYear: r.enrolYear, graduated: String(r.graduated), version: r.version })}
        title={id ? t(gx ? 'grade.editYearTitle' : 'grade.editTitle') : t(gx ? 'grade.addYearTitle' : 'grade.addTitle')}
        description={t(gx ? 'grade.yearFormHint' : 'grade.formHint')}
        backTo={access.paths.list}
        data-testid="grade-form"
      >
        {(form) => {
          const stage = (form.watch(STAGE_FIELD) as GradeStage | undefined) ?? stages[0];
          const numbers = GRADE_STAGES.includes(stage) ? numbersOf(stage) : [];
          return (
            <FieldGroup>
              {gx ? null : <SelectField name="stage" label={t('grade.stage')} required options={enumOptions(GRADE_STAGE_TABLE, t, stages)} />}
              <TextField name="enrolYear" label={t('grade.enrolYear')} required type="number" inputMode="numeric" />
              {gx ? (
                <SelectField name="gradeNo" label={t('grade.currentGrade')} required options={numbers.map((n) => ({ value: String(n), label: t(gradeNameKey(n)) }))} />
              ) : (
                <CustomField
                  name="gradeNo"
                  label={t('grade.currentGrade')}
                  render={() => (
                    <DerivedGrade stage={stage} enrolYear={Number(form.watch('enrolYear'))} graduated={String(form.watch('graduated')) === 'true'} startYear={startYear} />
                  )}
                />
              )}
              <RadioField
                name="graduated"
                label={t('grade.status')}
                options={[
                  { value: 'false', label: t('grade.inSchool') },
                  { value: 'true', label: t('grade.graduated') },
                ]}
              />
            </FieldGroup>
          );
        }}
      </FormScreen>
    </>
  );
}

/** A school cohort's grade as the server will derive it, or why it cannot be saved so (the rule in src/domain). */
function DerivedGrade({ stage, enrolYear, graduated, startYear }: { stage: GradeStage; enrolYear: number; graduated: boolean; startYear?: number }) {
  const { t } = useTranslation('school');
  if (startYear === undefined || !(K12_STAGES as readonly string[]).includes(stage) || !Number.isInteger(enrolYear) || enrolYear < ENROL_YEAR_MIN || enrolYear > ENROL_YEAR_MAX) {
    return <p className="py-2 text-sm text-muted-foreground" data-testid="grade-derived">—</p>;
  }
  const schoolYear = `${startYear}-${startYear + 1}`;
  const derived = cohortGrade(stage, enrolYear, graduated, startYear);
  return (
    <FormControl>
      <p className={cn('py-2 text-sm', derived.ok ? 'font-medium' : 'text-destructive')} data-testid="grade-derived" aria-live="polite">
        {derived.ok
          ? t('grade.derivedIn', { grade: t(gradeNameKey(derived.gradeNo)), schoolYear })
          : t(derived.message, { enrolYear, schoolYear, stage: t(`grade.stages.${stage}`) })}
      </p>
    </FormControl>
  );
}
