import { useEffect, useMemo } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isGrade, isStandardVersion, type ItemKey } from '@/domain/physique/standard';
import { DEFAULT_FEE_PRECISION, DEFAULT_FEE_ROUNDING, FEE_PRECISIONS, FEE_ROUNDING_TABLE, roundFee, type FeePrecision, type FeeRounding } from '@/domain/test-plans/fee';
import { planItemsForGrade } from '@/domain/test-plans/items';
import { enumOptions } from '@/domain/presentation';
import { PLAN_SCOPE_TYPE_TABLE, planRequestSchema, type PlanRequest, type PlanScopeType } from '@/domain/test-plans/schemas';
import type { PlanDetail, PlanFormOptions, PlanGradeItems, PlanSchoolOption } from '@/domain/test-plans/types';
import { RadioField, SelectField, TextField } from '@/components/form/fields';
import { Form, FormField, FormItem, FormLabel, FormMessage } from '@/components/form/form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { PlanDateFields } from './plan-date-fields';
import { gradeNameKey } from '@/domain/school/grade-name';

/** What the form holds while editing; planRequestSchema turns it into a PlanRequest (same rules as the server). */
export interface PlanFormValues {
  schoolOrgId: string;
  name: string;
  schoolYearId: string;
  semesterCode: string;
  startDate: string;
  endDate: string;
  scopeType: PlanScopeType;
  scopeIds: string[];
  items: PlanGradeItems[];
  standardVersion: string;
  feeAmount: string;
  feePrecision: string;
  feeRounding: FeeRounding;
  /** The 中考体育 conversion table version applied ('' = none). */
  conversionTableId: string;
}

/** Empty form, preselecting the current school year and semester (and its dates) when the options name them. */
export function emptyPlanValues(options: PlanFormOptions | undefined, schoolOrgId = ''): PlanFormValues {
  const year = options?.schoolYears.find((y) => y.current) ?? options?.schoolYears[0];
  const term = year?.semesters.find((s) => s.current);
  return {
    schoolOrgId,
    name: '',
    schoolYearId: year?.id ?? '',
    semesterCode: term ? String(term.code) : '',
    startDate: term?.startDate ?? '',
    endDate: term?.endDate ?? '',
    scopeType: options?.scopeTypes[0] ?? 'grade',
    scopeIds: [],
    items: [],
    standardVersion: options?.defaultStandardVersion ?? '2014',
    feeAmount: '',
    feePrecision: String(DEFAULT_FEE_PRECISION),
    feeRounding: DEFAULT_FEE_ROUNDING,
    conversionTableId: '',
  };
}

/** The form values of an existing plan (edit). */
export function planToValues(plan: PlanDetail): PlanFormValues {
  return {
    schoolOrgId: plan.orgId,
    name: plan.name,
    schoolYearId: plan.schoolYearId,
    semesterCode: String(plan.semesterCode),
    startDate: plan.startDate,
    endDate: plan.endDate,
    scopeType: plan.scopeType,
    scopeIds: plan.scope.map((s) => s.id),
    items: plan.items,
    standardVersion: plan.standardVersion,
    feeAmount: plan.feeAmount === null ? '' : String(plan.feeAmount),
    feePrecision: String(plan.feePrecision),
    feeRounding: plan.feeRounding,
    conversionTableId: plan.conversion?.id ?? '',
  };
}

/** Grade numbers the chosen scope covers: the grades themselves, the classes' grades, or the grades of the colleges' classes. */
export function scopeGrades(options: PlanFormOptions | undefined, scopeType: PlanScopeType, scopeIds: readonly string[]): number[] {
  if (!options) return [];
  const ids = new Set(scopeIds);
  const nos =
    scopeType === 'grade'
      ? options.grades.filter((g) => ids.has(g.id)).map((g) => g.gradeNo)
      : scopeType === 'class'
        ? options.classes.filter((c) => ids.has(c.id)).map((c) => c.gradeNo)
        : options.classes.filter((c) => c.collegeId !== null && ids.has(c.collegeId)).map((c) => c.gradeNo);
  return [...new Set(nos)].sort((a, b) => a - b);
}

/** Items of each grade in scope: what was chosen before for a grade, else every item the standard sets for it (docs/product-rules.md#test-plans). */
export function syncGradeItems(current: readonly PlanGradeItems[], gradeNos: readonly number[], version: string): PlanGradeItems[] {
  const v = isStandardVersion(version) ? version : '2014';
  const before = new Map(current.map((g) => [g.gradeNo, g.items]));
  return gradeNos.filter(isGrade).map((gradeNo) => {
    const allowed = planItemsForGrade(gradeNo, v);
    const kept = before.get(gradeNo)?.filter((i) => allowed.includes(i));
    return { gradeNo, items: kept && kept.length > 0 ? kept : allowed };
  });
}

// The schema preprocesses the form's strings ('' → missing, '13' → 13); its inferred input type is looser than the
// form's, and ResolverOptions is invariant in it, hence the one cast.
const planResolver = zodResolver(planRequestSchema) as unknown as Resolver<PlanFormValues, unknown, PlanRequest>;

export interface PlanFormProps {
  /** Options of the school (undefined while loading, or until an admin picks a school). */
  options: PlanFormOptions | undefined;
  optionsLoading?: boolean;
  initial: PlanFormValues;
  editing: boolean;
  /** Schools to choose from (admin family); the choice is reported so the options can load. */
  schools?: PlanSchoolOption[];
  onSchoolChange?(schoolOrgId: string): void;
  onSubmit(values: PlanRequest): Promise<void>;
  onCancel(): void;
}

/** The test-plan form (docs/product-rules.md#test-plans): name, term, dates, scope, items per grade, standard version, test report fee. */
export function PlanForm({ options, optionsLoading, initial, editing, schools, onSchoolChange, onSubmit, onCancel }: PlanFormProps) {
  const { t } = useTranslation(['testPlansUi', 'physique', 'common']);
  const form = useForm<PlanFormValues, unknown, PlanRequest>({
    resolver: planResolver,
    defaultValues: initial,
  });
  const [scopeType, scopeIds, version, schoolYearId, feeAmount, feePrecision, feeRounding] = useWatch({
    control: form.control,
    name: ['scopeType', 'scopeIds', 'standardVersion', 'schoolYearId', 'feeAmount', 'feePrecision', 'feeRounding'],
  });

  // A new school (admin) or freshly loaded options: start from the school's defaults, keeping what was typed.
  useEffect(() => {
    if (!options || editing) return;
    const values = form.getValues();
    const defaults = emptyPlanValues(options, values.schoolOrgId);
    if (!values.schoolYearId || !options.schoolYears.some((y) => y.id === values.schoolYearId)) {
      form.reset({ ...defaults, name: values.name, feeAmount: values.feeAmount, feePrecision: values.feePrecision, feeRounding: values.feeRounding });
    }
  }, [options, editing, form]);

  const gradeNos = useMemo(() => scopeGrades(options, scopeType, scopeIds), [options, scopeType, scopeIds]);
  useEffect(() => {
    const next = syncGradeItems(form.getValues('items'), gradeNos, version);
    if (JSON.stringify(next) !== JSON.stringify(form.getValues('items'))) form.setValue('items', next);
  }, [gradeNos, version, form]);

  const year = options?.schoolYears.find((y) => y.id === schoolYearId);
  const feePreview = feePreviewOf(feeAmount, feePrecision, feeRounding);

  const submit = async (values: PlanRequest) => {
    await onSubmit(values);
  };

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(submit)} noValidate data-testid="plan-form" className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <Card>
          <CardHeader>
            <CardTitle>{t('form.basic')}</CardTitle>
            <CardDescription>{t('form.basicHint')}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5 md:grid-cols-2">
            {schools ? (
              <SelectField
                name="schoolOrgId"
                label={t('form.school')}
                required
                disabled={editing}
                className="md:col-span-2"
                testId="plan-school"
                options={schools.map((s) => ({ value: s.id, label: s.name }))}
                placeholder={t('form.schoolPlaceholder')}
                onValueChange={(v) => onSchoolChange?.(v)}
              />
            ) : null}
            <TextField
              name="name"
              label={t('form.name')}
              required
              className="md:col-span-2"
              inputTestId="plan-name-input"
              placeholder={t('form.namePlaceholder')}
              description={t('form.nameHint')}
            />
            <SelectField
              name="schoolYearId"
              label={t('form.schoolYear')}
              required
              testId="plan-school-year"
              options={(options?.schoolYears ?? []).map((y) => ({ value: y.id, label: y.academicYear }))}
              onValueChange={() => form.setValue('semesterCode', '')}
            />
            <SelectField
              name="semesterCode"
              label={t('form.semester')}
              required
              testId="plan-semester"
              options={(year?.semesters ?? []).map((s) => ({ value: String(s.code), label: t(`semester.${s.code}`) }))}
              onValueChange={(v) => {
                // The semester's dates are the natural plan dates: fill them in when none are set yet.
                const term = year?.semesters.find((s) => String(s.code) === v);
                if (term && !form.getValues('startDate') && !form.getValues('endDate')) {
                  form.setValue('startDate', term.startDate);
                  form.setValue('endDate', term.endDate);
                }
              }}
            />
            <PlanDateFields />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t('form.scope')}</CardTitle>
            <CardDescription>{t('form.scopeHint')}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            {optionsLoading ? <Skeleton className="h-24 w-full" /> : null}
            <RadioField
              name="scopeType"
              label={t('form.scopeType')}
              required
              testId="plan-scope-type"
              options={enumOptions(PLAN_SCOPE_TYPE_TABLE, t, options?.scopeTypes ?? [scopeType])}
              onValueChange={() => form.setValue('scopeIds', [])}
            />
            <FormField
              control={form.control}
              name="scopeIds"
              render={({ field }) => (
                <FormItem>
                  <FormLabel required>{t(`form.scopePick.${scopeType}`)}</FormLabel>
                  <ScopePicker options={options} scopeType={scopeType} value={field.value} onChange={field.onChange} />
                  <FormMessage />
                </FormItem>
              )}
            />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t('form.items')}</CardTitle>
            <CardDescription>{t('form.itemsHint')}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            <SelectField
              name="standardVersion"
              label={t('form.standardVersion')}
              required
              className="max-w-xs"
              options={(options?.standardVersions ?? [version]).map((v) => ({ value: v, label: t('physique:standard.version', { version: v }) }))}
              description={t('physique:standard.title')}
            />
            <GradeItemsField form={form} version={version} />
            <ConversionTableField options={options} />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t('form.fee')}</CardTitle>
            <CardDescription>{t('form.feeHint')}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5 md:grid-cols-3">
            <TextField name="feeAmount" label={t('form.feeAmount')} inputMode="decimal" placeholder={t('form.feePlaceholder')} inputTestId="plan-fee" />
            <SelectField name="feePrecision" label={t('form.feePrecision')} clearable={false} options={FEE_PRECISIONS.map((p) => ({ value: String(p), label: t(`testPlans:feePrecision.${p}`) }))} />
            <RadioField name="feeRounding" label={t('form.feeRounding')} options={enumOptions(FEE_ROUNDING_TABLE, t)} />
            {feePreview !== null ? (
              <p className="text-sm text-muted-foreground md:col-span-3" data-testid="plan-fee-preview">
                {t('form.feePreview', { amount: feePreview })}
              </p>
            ) : null}
          </CardContent>
          <CardFooter className="justify-end gap-2 border-t pt-6">
            <Button type="button" variant="outline" onClick={onCancel} disabled={form.formState.isSubmitting}>
              {t('common:action.cancel')}
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting} data-testid="plan-submit">
              {t('common:action.save')}
            </Button>
          </CardFooter>
        </Card>
      </form>
    </Form>
  );
}

/**
 * The optional 中考体育 conversion table (docs/product-rules.md#physique-year): versions published above the school;
 * shown only where there are some. The server checks the choice against the plan's grades.
 */
function ConversionTableField({ options }: { options: PlanFormOptions | undefined }) {
  const { t } = useTranslation(['conversion', 'school']);
  const tables = options?.conversionTables ?? [];
  if (tables.length === 0) return null;
  const label = (o: (typeof tables)[number]) =>
    t(o.sample ? 'plan.sampleOption' : 'plan.option', { name: o.name, year: o.year, stage: t(`school:grade.stages.${o.stage}`), version: o.tableVersion, org: o.orgName });
  return (
    <SelectField
      name="conversionTableId"
      label={t('plan.label')}
      placeholder={t('plan.none')}
      description={t('plan.hint')}
      className="max-w-xl"
      options={tables.map((o) => ({ value: o.id, label: label(o) }))}
      testId="plan-conversion"
    />
  );
}

/** The fee as it will be charged after precision and rounding, or null while the amount is not a number. */
function feePreviewOf(amount: string, precision: string, rounding: FeeRounding): string | null {
  const n = Number(amount);
  const p = Number(precision) as FeePrecision;
  if (amount.trim() === '' || !Number.isFinite(n) || !(FEE_PRECISIONS as readonly number[]).includes(p)) return null;
  return roundFee(n, p, rounding).toFixed(p);
}

interface ScopePickerProps {
  options: PlanFormOptions | undefined;
  scopeType: PlanScopeType;
  value: string[];
  onChange(ids: string[]): void;
}

/** Checkboxes of grades, classes (grouped by grade) or colleges, with select-all. */
function ScopePicker({ options, scopeType, value, onChange }: ScopePickerProps) {
  const { t } = useTranslation(['testPlansUi', 'physique']);
  const chosen = new Set(value);
  const toggle = (ids: string[], on: boolean) => {
    const next = new Set(chosen);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    onChange([...next]);
  };
  const gradeName = (no: number) => t(gradeNameKey(no), { defaultValue: String(no) });

  const groups: { key: string; label: string; entries: { id: string; label: string }[] }[] =
    scopeType === 'grade'
      ? [{ key: 'all', label: '', entries: (options?.grades ?? []).map((g) => ({ id: g.id, label: t('gradeWithYear', { grade: gradeName(g.gradeNo), year: g.enrolYear }) })) }]
      : scopeType === 'college'
        ? [{ key: 'all', label: '', entries: (options?.colleges ?? []).map((c) => ({ id: c.id, label: c.name })) }]
        : [...new Set((options?.classes ?? []).map((c) => c.gradeNo))].map((no) => ({
            key: String(no),
            label: gradeName(no),
            entries: (options?.classes ?? []).filter((c) => c.gradeNo === no).map((c) => ({ id: c.id, label: c.name })),
          }));
  const allIds = groups.flatMap((g) => g.entries.map((e) => e.id));
  if (allIds.length === 0) return <p className="text-sm text-muted-foreground">{t('form.scopeEmpty')}</p>;

  const state = (ids: string[]) => {
    const n = ids.filter((id) => chosen.has(id)).length;
    return n === 0 ? false : n === ids.length ? true : 'indeterminate';
  };

  return (
    <div className="grid gap-3 rounded-md border p-3" data-testid="plan-scope-picker">
      <label className="flex items-center gap-2 text-sm font-medium">
        <Checkbox checked={state(allIds)} onCheckedChange={(c) => toggle(allIds, c === true)} data-testid="plan-scope-all" />
        {t('form.selectAll')}
      </label>
      {groups.map((g) => {
        const ids = g.entries.map((e) => e.id);
        return (
          <div key={g.key} className="grid gap-2">
            {g.label ? (
              <label className="flex items-center gap-2 text-sm font-medium text-muted-foreground">
                <Checkbox checked={state(ids)} onCheckedChange={(c) => toggle(ids, c === true)} />
                {g.label}
              </label>
            ) : null}
            <div className="flex flex-wrap gap-x-5 gap-y-2 pl-6">
              {g.entries.map((e) => (
                <label key={e.id} className="flex items-center gap-2 text-sm" data-testid="plan-scope-option">
                  <Checkbox checked={chosen.has(e.id)} onCheckedChange={(c) => toggle([e.id], c === true)} />
                  {e.label}
                </label>
              ))}
            </div>
          </div>
        );
      })}
    </div>
  );
}

/** Items of every grade in scope, as checkboxes over the standard's items for that grade. */
function GradeItemsField({ form, version }: { form: UseFormReturn<PlanFormValues, unknown, PlanRequest>; version: string }) {
  const { t } = useTranslation(['testPlansUi', 'physique']);
  const items = useWatch({ control: form.control, name: 'items' });
  const error = form.formState.errors.items;
  const v = isStandardVersion(version) ? version : '2014';
  if (items.length === 0) return <p className="text-sm text-muted-foreground">{t('form.itemsEmpty')}</p>;

  const setItems = (gradeNo: number, item: ItemKey, on: boolean) => {
    const next = items.map((g) => {
      if (g.gradeNo !== gradeNo) return g;
      const chosen = new Set(g.items);
      if (on) chosen.add(item);
      else chosen.delete(item);
      const allowed = isGrade(gradeNo) ? planItemsForGrade(gradeNo, v) : [];
      return { gradeNo, items: allowed.filter((i) => chosen.has(i)) };
    });
    form.setValue('items', next, { shouldValidate: form.formState.isSubmitted });
  };

  return (
    <div className="grid gap-3" data-testid="plan-items">
      {items.map((g, index) => {
        const allowed = isGrade(g.gradeNo) ? planItemsForGrade(g.gradeNo, v) : [];
        const message = error?.[index]?.items?.message ?? error?.[index]?.message;
        return (
          <fieldset key={g.gradeNo} className="grid gap-2 rounded-md border p-3" data-grade={g.gradeNo}>
            <legend className="px-1 text-sm font-medium">{t(gradeNameKey(g.gradeNo), { defaultValue: String(g.gradeNo) })}</legend>
            <div className="flex flex-wrap gap-x-5 gap-y-2">
              {allowed.map((item) => (
                <label key={item} className="flex items-center gap-2 text-sm">
                  <Checkbox checked={g.items.includes(item)} onCheckedChange={(c) => setItems(g.gradeNo, item, c === true)} />
                  {t(`physique:item.${item}`)}
                </label>
              ))}
            </div>
            {message ? (
              <p role="alert" className="text-sm text-destructive">
                {t(message, { defaultValue: message })}
              </p>
            ) : null}
          </fieldset>
        );
      })}
    </div>
  );
}
