import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEMESTER } from '@/domain/constants';
import { PLAN_STATUSES, type PlanStatus } from '@/domain/test-plans/status';
import { FilterSelect, FilterText, SearchForm } from '@/components/search-form/search-form';
import type { PlanListQuery } from '../api/list-plans';

export type PlanFilterValues = Pick<PlanListQuery, 'name' | 'academicYear' | 'semesterCode' | 'status' | 'schoolOrgId'>;

export interface PlanFiltersProps {
  value: PlanFilterValues;
  onChange(value: PlanFilterValues): void;
  /** Academic years to offer, newest first ('2025-2026'). */
  years: string[];
  /** Schools (admin family only). */
  schools?: { id: string; name: string }[];
}

/** Name, school year, semester and status filters of the plan list; applied with Search, cleared with Reset. */
export function PlanFilters({ value, onChange, years, schools }: PlanFiltersProps) {
  const { t } = useTranslation(['testPlanUi', 'common']);
  const [draft, setDraft] = useState<PlanFilterValues>(value);

  return (
    <SearchForm
      data-testid="plan-filters"
      searchTestId="plan-filter-search"
      onSearch={() => onChange({ ...draft, name: draft.name?.trim() || undefined })}
      onReset={() => {
        setDraft({});
        onChange({});
      }}
    >
      {schools ? (
        <FilterSelect
          label={t('filter.school')}
          className="w-52"
          value={draft.schoolOrgId}
          onChange={(v) => setDraft({ ...draft, schoolOrgId: v })}
          options={schools.map((s) => ({ value: s.id, label: s.name }))}
        />
      ) : null}
      <FilterText
        id="plan-filter-name"
        label={t('filter.name')}
        className="w-52"
        data-testid="plan-filter-name"
        value={draft.name}
        placeholder={t('filter.namePlaceholder')}
        onChange={(v) => setDraft({ ...draft, name: v })}
      />
      <FilterSelect
        label={t('filter.schoolYear')}
        className="w-40"
        value={draft.academicYear}
        onChange={(v) => setDraft({ ...draft, academicYear: v })}
        options={years.map((y) => ({ value: y, label: y }))}
      />
      <FilterSelect
        label={t('filter.semester')}
        className="w-36"
        value={draft.semesterCode ? String(draft.semesterCode) : undefined}
        onChange={(v) => setDraft({ ...draft, semesterCode: v === undefined ? undefined : Number(v) })}
        options={Object.values(SEMESTER).map((code) => ({ value: String(code), label: t(`semester.${code}`) }))}
      />
      <FilterSelect
        label={t('filter.status')}
        className="w-32"
        value={draft.status}
        onChange={(v) => setDraft({ ...draft, status: v as PlanStatus | undefined })}
        options={PLAN_STATUSES.map((s) => ({ value: s, label: t(`testPlan:status.${s}`) }))}
      />
    </SearchForm>
  );
}
