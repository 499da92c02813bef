import { useState } from 'react';
import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { SEMESTER } from '@/domain/constants';
import { PLAN_STATUSES, type PlanStatus } from '@/domain/test-plans/status';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import type { PlanListQuery } from '../api/list-plans';

export type PlanFilterValues = Pick<PlanListQuery, 'name' | 'academicYear' | 'semesterCode' | 'status' | 'schoolOrgId'>;

const ALL = '__all';

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
  const all = { value: ALL, label: t('filter.all') };
  const pick = (v: string) => (v === ALL ? undefined : v);

  return (
    <form
      className="flex flex-wrap items-end gap-3"
      data-testid="plan-filters"
      onSubmit={(e) => {
        e.preventDefault();
        onChange({ ...draft, name: draft.name?.trim() || undefined });
      }}
    >
      {schools ? (
        <div className="grid gap-1.5">
          <Label>{t('filter.school')}</Label>
          <Select
            className="w-52"
            aria-label={t('filter.school')}
            value={draft.schoolOrgId ?? ALL}
            onValueChange={(v) => setDraft({ ...draft, schoolOrgId: pick(v) })}
            options={[all, ...schools.map((s) => ({ value: s.id, label: s.name }))]}
          />
        </div>
      ) : null}
      <div className="grid gap-1.5">
        <Label htmlFor="plan-filter-name">{t('filter.name')}</Label>
        <Input
          id="plan-filter-name"
          className="w-52"
          data-testid="plan-filter-name"
          value={draft.name ?? ''}
          placeholder={t('filter.namePlaceholder')}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
        />
      </div>
      <div className="grid gap-1.5">
        <Label>{t('filter.schoolYear')}</Label>
        <Select
          className="w-40"
          aria-label={t('filter.schoolYear')}
          value={draft.academicYear ?? ALL}
          onValueChange={(v) => setDraft({ ...draft, academicYear: pick(v) })}
          options={[all, ...years.map((y) => ({ value: y, label: y }))]}
        />
      </div>
      <div className="grid gap-1.5">
        <Label>{t('filter.semester')}</Label>
        <Select
          className="w-36"
          aria-label={t('filter.semester')}
          value={draft.semesterCode ? String(draft.semesterCode) : ALL}
          onValueChange={(v) => setDraft({ ...draft, semesterCode: v === ALL ? undefined : Number(v) })}
          options={[all, ...Object.values(SEMESTER).map((code) => ({ value: String(code), label: t(`semester.${code}`) }))]}
        />
      </div>
      <div className="grid gap-1.5">
        <Label>{t('filter.status')}</Label>
        <Select
          className="w-32"
          aria-label={t('filter.status')}
          value={draft.status ?? ALL}
          onValueChange={(v) => setDraft({ ...draft, status: pick(v) as PlanStatus | undefined })}
          options={[all, ...PLAN_STATUSES.map((s) => ({ value: s, label: t(`testPlan:status.${s}`) }))]}
        />
      </div>
      <div className="flex gap-2">
        <Button type="submit" data-testid="plan-filter-search">
          <Search aria-hidden />
          {t('filter.search')}
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            setDraft({});
            onChange({});
          }}
        >
          {t('common:action.reset')}
        </Button>
      </div>
    </form>
  );
}
