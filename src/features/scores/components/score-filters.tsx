import { useState } from 'react';
import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SEMESTER } from '@/domain/constants';
import { LEVEL_FILTERS, type LevelFilter, type ScoreFilter } from '@/domain/physique-results/schemas';
import { GENDERS, GRADES, type Gender, type Grade } from '@/domain/physique/standard';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { usePlanChoicesQuery, useSchoolOptionsQuery, useSchoolsQuery } from '../api/get-filter-options';
import type { ScoreFamily } from '../family';

export type ScoreFilterValues = Partial<ScoreFilter>;
type Field = 'school' | 'schoolYear' | 'semester' | 'plan' | 'grade' | 'class' | 'gender' | 'level' | 'keyword' | 'validity';
const ALL_FIELDS: readonly Field[] = ['school', 'schoolYear', 'semester', 'plan', 'grade', 'class', 'gender', 'level', 'keyword', 'validity'];
const ALL = '__all';

/** Grades a family's students are in when the school's own grade list is not at hand. */
function familyGrades(family: ScoreFamily): number[] {
  if (family === 'k12') return GRADES.filter((g) => g <= 12);
  if (family === 'gx') return GRADES.filter((g) => g >= 13);
  return [...GRADES];
}

export interface ScoreFiltersProps {
  family: ScoreFamily;
  value: ScoreFilterValues;
  onChange(value: ScoreFilterValues): void;
  /** Filters to leave out (e.g. the plan inside a plan's own results tab). */
  hide?: readonly Field[];
  /** Filters a reset keeps (e.g. the upload year of the results screen). */
  keep?: ScoreFilterValues;
}

/**
 * Filters of score search and the results screen (issue 3 §4): school year, semester, plan, grade, class, gender,
 * level, name or registration number, validity. Applied with Search; Reset clears them.
 */
export function ScoreFilters({ family, value, onChange, hide = [], keep = {} }: ScoreFiltersProps) {
  const { t } = useTranslation(['scoresUi', 'physique', 'common']);
  const [draft, setDraft] = useState<ScoreFilterValues>(value);
  const show = Object.fromEntries(ALL_FIELDS.map((f) => [f, !hide.includes(f) && (f !== 'school' || family === 'admin')])) as Record<Field, boolean>;
  const schools = useSchoolsQuery(family);
  const options = useSchoolOptionsQuery(family, draft.orgId);
  const year = options.data?.schoolYears.find((y) => y.id === draft.schoolYearId);
  const plans = usePlanChoicesQuery(family, year?.academicYear, draft.orgId);
  const gradeNos = options.data ? [...new Set(options.data.grades.map((g) => g.gradeNo))].sort((a, b) => a - b) : familyGrades(family);
  const classes = (options.data?.classes ?? []).filter((c) => draft.gradeNo === undefined || c.gradeNo === draft.gradeNo);
  const all = { value: ALL, label: t('filter.all') };
  const set = (patch: ScoreFilterValues) => setDraft((d) => ({ ...d, ...patch }));
  const pick = (v: string) => (v === ALL ? undefined : v);

  return (
    <form
      className="flex flex-wrap items-end gap-3"
      data-testid="score-filters"
      onSubmit={(e) => {
        e.preventDefault();
        onChange({ ...draft, keyword: draft.keyword?.trim() || undefined });
      }}
    >
      {show.school ? (
        <div className="grid gap-1.5">
          <Label>{t('filter.school')}</Label>
          <Select
            className="w-48"
            aria-label={t('filter.school')}
            value={draft.orgId ?? ALL}
            onValueChange={(v) => set({ orgId: pick(v), schoolYearId: undefined, planId: undefined, classId: undefined })}
            options={[all, ...(schools.data ?? []).map((s) => ({ value: s.id, label: s.name }))]}
          />
        </div>
      ) : null}
      {show.schoolYear ? (
        <div className="grid gap-1.5">
          <Label>{t('filter.schoolYear')}</Label>
          <Select
            className="w-36"
            aria-label={t('filter.schoolYear')}
            value={draft.schoolYearId ?? ALL}
            onValueChange={(v) => set({ schoolYearId: pick(v), planId: undefined })}
            options={[all, ...(options.data?.schoolYears ?? []).map((y) => ({ value: y.id, label: y.academicYear }))]}
          />
        </div>
      ) : null}
      {show.semester ? (
        <div className="grid gap-1.5">
          <Label>{t('filter.semester')}</Label>
          <Select
            className="w-32"
            aria-label={t('filter.semester')}
            value={draft.semesterCode ? String(draft.semesterCode) : ALL}
            onValueChange={(v) => set({ semesterCode: v === ALL ? undefined : (Number(v) as ScoreFilter['semesterCode']) })}
            options={[all, ...Object.values(SEMESTER).map((code) => ({ value: String(code), label: t(`semester.${code}`) }))]}
          />
        </div>
      ) : null}
      {show.plan ? (
        <div className="grid gap-1.5">
          <Label>{t('filter.plan')}</Label>
          <Select
            className="w-52"
            aria-label={t('filter.plan')}
            value={draft.planId ?? ALL}
            onValueChange={(v) => set({ planId: pick(v) })}
            options={[all, ...(plans.data?.records ?? []).map((p) => ({ value: p.id, label: p.name }))]}
          />
        </div>
      ) : null}
      {show.grade ? (
        <div className="grid gap-1.5">
          <Label>{t('filter.grade')}</Label>
          <Select
            className="w-28"
            aria-label={t('filter.grade')}
            value={draft.gradeNo ? String(draft.gradeNo) : ALL}
            onValueChange={(v) => set({ gradeNo: v === ALL ? undefined : (Number(v) as Grade), classId: undefined })}
            options={[all, ...gradeNos.map((g) => ({ value: String(g), label: t(`physique:grade.${g}`) }))]}
          />
        </div>
      ) : null}
      {show.class ? (
        <div className="grid gap-1.5">
          <Label>{t('filter.class')}</Label>
          <Select
            className="w-36"
            aria-label={t('filter.class')}
            value={draft.classId ?? ALL}
            onValueChange={(v) => set({ classId: pick(v) })}
            options={[all, ...classes.map((c) => ({ value: c.id, label: c.name }))]}
          />
        </div>
      ) : null}
      {show.gender ? (
        <div className="grid gap-1.5">
          <Label>{t('filter.gender')}</Label>
          <Select
            className="w-24"
            aria-label={t('filter.gender')}
            value={draft.gender ?? ALL}
            onValueChange={(v) => set({ gender: pick(v) as Gender | undefined })}
            options={[all, ...GENDERS.map((g) => ({ value: g, label: t(`physique:gender.${g}`) }))]}
          />
        </div>
      ) : null}
      {show.level ? (
        <div className="grid gap-1.5">
          <Label>{t('filter.level')}</Label>
          <Select
            className="w-28"
            aria-label={t('filter.level')}
            value={draft.level ?? ALL}
            onValueChange={(v) => set({ level: pick(v) as LevelFilter | undefined })}
            options={[all, ...LEVEL_FILTERS.map((l) => ({ value: l, label: l === 'incomplete' ? t('level.incomplete') : t(`physique:level.${l}`) }))]}
          />
        </div>
      ) : null}
      {show.validity ? (
        <div className="grid gap-1.5">
          <Label>{t('filter.validity')}</Label>
          <Select
            className="w-24"
            aria-label={t('filter.validity')}
            value={draft.invalid === undefined ? ALL : draft.invalid ? 'invalid' : 'valid'}
            onValueChange={(v) => set({ invalid: v === ALL ? undefined : v === 'invalid' })}
            options={[all, { value: 'valid', label: t('validity.valid') }, { value: 'invalid', label: t('validity.invalid') }]}
          />
        </div>
      ) : null}
      {show.keyword ? (
        <div className="grid gap-1.5">
          <Label htmlFor="score-filter-keyword">{t('filter.keyword')}</Label>
          <Input
            id="score-filter-keyword"
            className="w-48"
            data-testid="score-filter-keyword"
            value={draft.keyword ?? ''}
            placeholder={t('filter.keywordPlaceholder')}
            onChange={(e) => set({ keyword: e.target.value })}
          />
        </div>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" data-testid="score-filter-search">
          <Search aria-hidden />
          {t('filter.search')}
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            setDraft(keep);
            onChange(keep);
          }}
        >
          {t('common:action.reset')}
        </Button>
      </div>
    </form>
  );
}
