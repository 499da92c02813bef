import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEMESTER } from '@/domain/constants';
import { LEVEL_FILTER_TABLE, scoreFilterSchema, type LevelFilter, type ScoreFilter } from '@/domain/physique-results/schemas';
import { maxLengthOf } from '@/domain/list-query';
import { GRADES, type Gender, type Grade } from '@/domain/physique/standard';
import { GENDER_TABLE } from '@/domain/people/gender';
import { enumOptions } from '@/domain/presentation';
import { FilterSelect, FilterText, SearchForm } from '@/components/search-form/search-form';
import { usePlanChoicesQuery, useSchoolOptionsQuery, useSchoolsQuery } from '../api/get-filter-options';
import type { Family } from '@/domain/menus/access';
import { gradeNameKey } from '@/domain/school/grade-name';

export type ScoreFilterValues = Partial<ScoreFilter>;
type Field = 'school' | 'schoolYear' | 'semester' | 'plan' | 'grade' | 'class' | 'gender' | 'level' | 'keyword' | 'validity';
const ALL_FIELDS: readonly Field[] = ['school', 'schoolYear', 'semester', 'plan', 'grade', 'class', 'gender', 'level', 'keyword', 'validity'];

/** Grades a family's students are in when the school's own grade list is not at hand. */
function familyGrades(family: Family): number[] {
  if (family === 'k12') return GRADES.filter((g) => g <= 12);
  if (family === 'gx') return GRADES.filter((g) => g >= 13);
  return [...GRADES];
}

export interface ScoreFiltersProps {
  family: Family;
  value: ScoreFilterValues;
  onChange(value: ScoreFilterValues): void;
  /** Filters to leave out (e.g. the plan inside a plan's own results tab). */
  hide?: readonly Field[];
  /** Filters a reset keeps (e.g. the upload year of the results screen). */
  keep?: ScoreFilterValues;
  /** The server's message for a filter it refused, shown under that filter. */
  refused?: { field: string; message: string };
  /**
   * The school year the server defaulted the list to (a management organisation's list naming no year): shown as the
   * chosen year; choosing "all" sends `allYears` (src/domain/physique-results/schemas.ts).
   */
  defaultYear?: { id: string; academicYear: string };
}

/**
 * Filters of score search and the results screen (docs/product-rules.md#physique-results: result filters): school year, semester, plan, grade, class, gender,
 * level, name or registration number, validity. Applied with Search; Reset clears them.
 */
export function ScoreFilters({ family, value, onChange, hide = [], keep = {}, refused, defaultYear }: ScoreFiltersProps) {
  const { t } = useTranslation(['physiqueResultsUi', 'physique', 'common']);
  const [draft, setDraft] = useState<ScoreFilterValues>(value);
  const show = Object.fromEntries(ALL_FIELDS.map((f) => [f, !hide.includes(f) && (f !== 'school' || family === 'admin')])) as Record<Field, boolean>;
  const schools = useSchoolsQuery(family);
  const options = useSchoolOptionsQuery(family, draft.orgId);
  // The server's default holds while nothing names a year, semester or plan and "all" was not chosen.
  const defaulted = draft.allYears || draft.semesterCode || draft.planId ? undefined : defaultYear;
  const yearId = draft.schoolYearId ?? defaulted?.id;
  const yearOptions = (options.data?.schoolYears ?? []).map((y) => ({ value: y.id, label: y.academicYear }));
  if (defaulted && !yearOptions.some((y) => y.value === defaulted.id)) yearOptions.unshift({ value: defaulted.id, label: defaulted.academicYear });
  const year = options.data?.schoolYears.find((y) => y.id === yearId) ?? (defaulted?.id === yearId ? defaulted : undefined);
  const plans = usePlanChoicesQuery(family, year?.academicYear, draft.orgId);
  const gradeNos = options.data ? [...new Set(options.data.grades.map((g) => g.gradeNo))].sort((a, b) => a - b) : familyGrades(family);
  const classes = (options.data?.classes ?? []).filter((c) => draft.gradeNo === undefined || c.gradeNo === draft.gradeNo);
  const set = (patch: ScoreFilterValues) => setDraft((d) => ({ ...d, ...patch }));

  return (
    <SearchForm
      data-testid="score-filters"
      searchTestId="score-filter-search"
      onSearch={() => onChange({ ...draft, keyword: draft.keyword?.trim() || undefined })}
      onReset={() => {
        setDraft(keep);
        onChange(keep);
      }}
    >
      {show.school ? (
        <FilterSelect
          label={t('filter.school')}
          className="w-48"
          value={draft.orgId}
          onChange={(v) => set({ orgId: v, schoolYearId: undefined, planId: undefined, classId: undefined })}
          options={(schools.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
        />
      ) : null}
      {show.schoolYear ? (
        <FilterSelect
          label={t('filter.schoolYear')}
          className="w-36"
          data-testid="score-filter-year"
          value={yearId}
          onChange={(v) => set({ schoolYearId: v, allYears: v === undefined && family === 'admin' ? true : undefined, planId: undefined })}
          options={yearOptions}
        />
      ) : null}
      {show.semester ? (
        <FilterSelect
          label={t('filter.semester')}
          className="w-32"
          value={draft.semesterCode ? String(draft.semesterCode) : undefined}
          onChange={(v) => set({ semesterCode: v === undefined ? undefined : (Number(v) as ScoreFilter['semesterCode']) })}
          options={Object.values(SEMESTER).map((code) => ({ value: String(code), label: t(`semester.${code}`) }))}
        />
      ) : null}
      {show.plan ? (
        <FilterSelect
          label={t('filter.plan')}
          className="w-52"
          value={draft.planId}
          onChange={(v) => set({ planId: v })}
          options={(plans.data?.records ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
      ) : null}
      {show.grade ? (
        <FilterSelect
          label={t('filter.grade')}
          className="w-28"
          value={draft.gradeNo ? String(draft.gradeNo) : undefined}
          onChange={(v) => set({ gradeNo: v === undefined ? undefined : (Number(v) as Grade), classId: undefined })}
          options={gradeNos.map((g) => ({ value: String(g), label: t(gradeNameKey(g)) }))}
        />
      ) : null}
      {show.class ? (
        <FilterSelect
          label={t('filter.class')}
          className="w-36"
          value={draft.classId}
          onChange={(v) => set({ classId: v })}
          options={classes.map((c) => ({ value: c.id, label: c.name }))}
        />
      ) : null}
      {show.gender ? (
        <FilterSelect
          label={t('filter.gender')}
          className="w-24"
          value={draft.gender}
          onChange={(v) => set({ gender: v as Gender | undefined })}
          options={enumOptions(GENDER_TABLE, t)}
        />
      ) : null}
      {show.level ? (
        <FilterSelect
          label={t('filter.level')}
          className="w-28"
          value={draft.level}
          onChange={(v) => set({ level: v as LevelFilter | undefined })}
          options={enumOptions(LEVEL_FILTER_TABLE, t)}
        />
      ) : null}
      {show.validity ? (
        <FilterSelect
          label={t('filter.validity')}
          className="w-24"
          value={draft.invalid === undefined ? undefined : draft.invalid ? 'invalid' : 'valid'}
          onChange={(v) => set({ invalid: v === undefined ? undefined : v === 'invalid' })}
          options={[
            { value: 'valid', label: t('validity.valid') },
            { value: 'invalid', label: t('validity.invalid') },
          ]}
        />
      ) : null}
      {show.keyword ? (
        <FilterText
          id="score-filter-keyword"
          label={t('filter.keyword')}
          data-testid="score-filter-keyword"
          value={draft.keyword}
          maxLength={maxLengthOf(scoreFilterSchema, 'keyword')}
          placeholder={t('filter.keywordPlaceholder')}
          error={refused?.field === 'keyword' ? refused.message : undefined}
          onChange={(v) => set({ keyword: v })}
        />
      ) : null}
    </SearchForm>
  );
}
