import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pageApi } from '@/domain/menus/access';
import type { PeopleImportKind, PeopleImportPreview } from '@/domain/people/people-import';
import { useReviewedImport } from '@/components/import-dialog/reviewed-import';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { get } from '@/lib/api-client';

interface YearOption {
  id: string;
  academicYear: string;
  current: boolean;
  semesters: { id: string; code: number; current: boolean }[];
}

/**
 * Template, import (dry run, then commit) and export of a people list (docs/product-rules.md#people-import):
 * `const io = usePeopleImport(pageKey, kind, refetch)`, then `<ListScreen {...io.listProps} />` and `{io.dialog}`.
 * A student import first asks for the school year and semester.
 */
export function usePeopleImport(pageKey: string, kind: PeopleImportKind, onImported?: () => void) {
  const { t } = useTranslation('people');
  const base = pageApi(pageKey);
  const student = kind === 'student';
  const options = useQuery({ queryKey: ['resource', base, 'import-options'], queryFn: () => get<{ schoolYears: YearOption[] }>(`${base}/import/options`), enabled: student });
  const years = options.data?.schoolYears ?? [];
  // The person's choice; until then the current school year and semester.
  const [pickedYear, setYearId] = useState<string | null>(null);
  const [pickedSemester, setSemesterId] = useState<string | null>(null);
  const yearId = pickedYear ?? (years.find((y) => y.current) ?? years[0])?.id ?? '';
  const semesters = years.find((y) => y.id === yearId)?.semesters ?? [];
  const semesterId = pickedSemester ?? (semesters.find((s) => s.current) ?? semesters[0])?.id ?? '';
  const chosen = Boolean(yearId && semesterId);

  return useReviewedImport<PeopleImportPreview>({
    base,
    jobKind: 'peopleImport',
    title: t(`import.title.${kind}`),
    description: t(`import.description.${kind}`),
    fields: student ? { schoolYearId: yearId, semesterId } : undefined,
    canUpload: !student || chosen,
    blockedReason: student && !chosen ? t('import.yearSemesterFirst') : undefined,
    extra: student ? (
      <div className="grid grid-cols-2 gap-3" data-slot="import-year-semester">
        <div className="grid gap-1.5">
          <Label>{t('import.schoolYear')}</Label>
          <Select
            aria-label={t('import.schoolYear')}
            value={yearId}
            placeholder={t('import.chooseYear')}
            onValueChange={(v) => {
              setYearId(v);
              setSemesterId('');
            }}
            options={years.map((y) => ({ value: y.id, label: y.academicYear }))}
          />
        </div>
        <div className="grid gap-1.5">
          <Label>{t('import.semester')}</Label>
          <Select
            aria-label={t('import.semester')}
            value={semesterId}
            placeholder={t('import.chooseSemester')}
            onValueChange={setSemesterId}
            options={semesters.map((s) => ({ value: s.id, label: t(`import.semesterCode.${s.code}`) }))}
          />
        </div>
      </div>
    ) : undefined,
    // Students, staff and accounts are matched by 学籍号 / login account: updating them is the person's explicit choice.
    updatable: true,
    details: (p) => (p.parentsCreate === undefined ? null : <span data-slot="import-review-parents">{t('import.parents', { create: p.parentsCreate, update: p.parentsUpdate ?? 0 })}</span>),
    onImported,
  });
}
