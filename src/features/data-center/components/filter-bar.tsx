import { useAtomValue, useSetAtom } from 'jotai';
import { RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SEMESTER } from '@/domain/constants';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { DataCenterOptions } from '@/domain/data-center/types';
import { GENDER_TABLE } from '@/domain/people/gender';
import { enumOptions } from '@/domain/presentation';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, type SelectOption } from '@/components/ui/select';
import { useOptionsQuery } from '../api/get-options';
import { changeFiltersAtom, dataCenterFamilyAtom } from '../atoms';
import type { FilterKey } from '../filters';
import { gradeLabel } from '../format';

const ALL = '__all';

export interface FilterBarProps {
  /** The filters this view offers, in order. */
  show: readonly FilterKey[];
  /** The filters in effect (from the URL). */
  value: DataCenterFilter;
  /** The filters the server applied (defaults filled in): shown where nothing was chosen. */
  applied?: DataCenterFilter;
  /** Filters that have no "all" choice on this view (the grade view always shows one grade). */
  required?: readonly FilterKey[];
}

/**
 * The filter bar of every data-centre view: each choice changes the filter atom, which the URL follows and
 * every chart of the page reads (docs/product-rules.md#data-centre).
 */
export function FilterBar({ show, value, applied, required = [] }: FilterBarProps) {
  const { t } = useTranslation(['dashboard', 'physique']);
  const family = useAtomValue(dataCenterFamilyAtom);
  const change = useSetAtom(changeFiltersAtom);
  const options = useOptionsQuery(family, value.orgId).data;
  const shown = { ...applied, ...value };

  const field = (key: FilterKey, choices: SelectOption[], current: string | number | undefined, parse: (v: string) => DataCenterFilter) => {
    const all = required.includes(key) ? [] : [{ value: ALL, label: t(`filter.all.${key}`) }];
    return (
      <div key={key} className="grid gap-1.5" data-testid={`filter-${key}`}>
        <Label className="text-xs text-muted-foreground">{t(`filter.${key}`)}</Label>
        <Select
          className={key === 'planId' ? 'w-56' : 'w-40'}
          aria-label={t(`filter.${key}`)}
          value={current === undefined ? (all.length ? ALL : '') : String(current)}
          onValueChange={(v) => change(v === ALL ? { [key]: undefined } : parse(v))}
          options={[...all, ...choices]}
        />
      </div>
    );
  };
  const num = (key: FilterKey) => (v: string) => ({ [key]: Number(v) });
  const str = (key: FilterKey) => (v: string) => ({ [key]: v });
  // A plan fixes the school year and semester: show them with it.
  const pickPlan = (id: string): DataCenterFilter => {
    const plan = options?.plans.find((p) => p.id === id);
    return plan ? { planId: id, schoolYear: plan.schoolYear, semesterCode: plan.semesterCode as DataCenterFilter['semesterCode'] } : { planId: id };
  };

  const byKey: Record<FilterKey, () => ReturnType<typeof field> | null> = {
    orgId: () => (options?.schools.length ? field('orgId', options.schools.map((s) => ({ value: s.id, label: s.name })), shown.orgId, str('orgId')) : null),
    schoolYear: () =>
      field('schoolYear', (options?.schoolYears ?? []).map((y) => ({ value: String(y.schoolYear), label: y.academicYear })), shown.schoolYear, num('schoolYear')),
    semesterCode: () =>
      field(
        'semesterCode',
        [SEMESTER.autumn, SEMESTER.spring].map((s) => ({ value: String(s), label: t(`semester.${s}`) })),
        shown.semesterCode,
        num('semesterCode'),
      ),
    planId: () => field('planId', planChoices(options, shown), shown.planId, pickPlan),
    gradeNo: () => field('gradeNo', (options?.grades ?? []).map((g) => ({ value: String(g), label: gradeLabel(t, g) })), shown.gradeNo, num('gradeNo')),
    classId: () =>
      field(
        'classId',
        (options?.classes ?? []).filter((c) => !shown.gradeNo || c.gradeNo === shown.gradeNo).map((c) => ({ value: c.id, label: c.name })),
        shown.classId,
        str('classId'),
      ),
    collegeId: () => (options?.colleges.length ? field('collegeId', options.colleges.map((c) => ({ value: c.id, label: c.name })), shown.collegeId, str('collegeId')) : null),
    majorId: () =>
      options?.majors.length
        ? field(
            'majorId',
            options.majors.filter((m) => !shown.collegeId || m.collegeId === shown.collegeId).map((m) => ({ value: m.id, label: m.name })),
            shown.majorId,
            str('majorId'),
          )
        : null,
    gender: () =>
      field(
        'gender',
        enumOptions(GENDER_TABLE, t),
        shown.gender,
        str('gender'),
      ),
  };

  const clearAll = () => change(Object.fromEntries(show.filter((k) => !required.includes(k)).map((k) => [k, undefined])));

  return (
    <div className="mb-4 flex flex-wrap items-end gap-3" data-testid="filter-bar" role="search" aria-label={t('filter.label')}>
      {show.map((key) => byKey[key]())}
      <Button variant="ghost" size="sm" onClick={clearAll} data-testid="filter-reset">
        <RotateCcw aria-hidden />
        {t('filter.reset')}
      </Button>
    </div>
  );
}

/** Plans of the chosen school year and semester (all plans when none is chosen), newest first. */
function planChoices(options: DataCenterOptions | undefined, shown: DataCenterFilter): SelectOption[] {
  return (options?.plans ?? [])
    .filter((p) => (!shown.schoolYear || p.schoolYear === shown.schoolYear) && (!shown.semesterCode || p.semesterCode === shown.semesterCode))
    .sort((a, b) => b.startDate.localeCompare(a.startDate))
    .map((p) => ({ value: p.id, label: p.name }));
}
