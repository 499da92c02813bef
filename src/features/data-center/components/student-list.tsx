import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE } from '@/domain/constants';
import type { StudentListRow } from '@/domain/data-center/types';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { PageHeader } from '@/components/page-header/page-header';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useStudentListQuery } from '../api/get-student-list';
import { filtersKey, type FilterKey } from '../filters';
import { formatScore, gradeLabel } from '../format';
import { useDrill } from '../hooks/use-drill';
import { useFilterUrlSync } from '../hooks/use-filter-url-sync';
import { DrillBreadcrumbs } from './drill-breadcrumbs';
import { FilterBar } from './filter-bar';
import { ViewMeta } from './view-meta';

export const STUDENT_LIST_FILTERS: readonly FilterKey[] = ['orgId', 'schoolYear', 'semesterCode', 'planId', 'gradeNo', 'classId', 'collegeId', 'majorId', 'gender'];

const col = createDataTableColumnHelper<StudentListRow>();

/** Students of the scope with their latest result of the period (/k12/dataCenter/student), paged; a row opens the student. */
export function StudentList() {
  const { t } = useTranslation(['dashboard', 'physique']);
  const filters = useFilterUrlSync(STUDENT_LIST_FILTERS);
  const { links, go, family } = useDrill(filters);
  const [search, setSearch] = useSearchParams();
  const keyword = search.get('keyword') ?? '';
  const current = Math.max(1, Number(search.get('current')) || 1);
  const size = Number(search.get('size')) || DEFAULT_PAGE_SIZE;
  const [draft, setDraft] = useState(keyword);
  const query = useStudentListQuery(family, filters, { current, size, keyword: keyword || undefined });

  // Other filters, other rows: back to the first page.
  const key = filtersKey(filters);
  const pagedFor = useRef(key);
  useEffect(() => {
    if (pagedFor.current === key) return;
    pagedFor.current = key;
    if (search.has('current')) {
      const next = new URLSearchParams(search);
      next.delete('current');
      setSearch(next, { replace: true });
    }
  }, [key, search, setSearch]);
  const page = query.data;

  const setPaging = useCallback(
    (patch: Record<string, string | undefined>) => {
      const next = new URLSearchParams(search);
      for (const [k, v] of Object.entries(patch)) {
        if (v) next.set(k, v);
        else next.delete(k);
      }
      setSearch(next);
    },
    [search, setSearch],
  );

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor((r) => r.studentNo ?? '', { id: 'studentNo', header: t('student.studentNo'), meta: { width: 120 } }),
        col.accessor('name', { header: t('student.name'), meta: { className: 'font-medium' } }),
        col.accessor('gender', { header: t('student.gender'), cell: ({ getValue }) => t(`physique:gender.${getValue()}`) }),
        col.accessor('gradeNo', { header: t('ranking.grade'), cell: ({ getValue }) => gradeLabel(t, getValue()) }),
        col.accessor('className', { header: t('ranking.class') }),
        col.accessor('testedOn', { header: t('student.testedOn'), cell: ({ getValue }) => getValue() ?? '—' }),
        col.accessor('total', { header: t('physique:score.total'), meta: { align: 'right' }, cell: ({ getValue }) => formatScore(getValue()) }),
        col.accessor('level', { header: t('physique:score.level'), cell: ({ getValue }) => (getValue() ? t(`physique:level.${getValue()}`) : '—') }),
      ]),
    [t],
  );

  return (
    <div data-testid="dc-student-list">
      <PageHeader title={t('studentList.title')} description={<ViewMeta period={page?.period} />} />
      <DrillBreadcrumbs items={[{ label: t('school.title'), to: links.school }, { label: t('studentList.title') }]} />
      <FilterBar show={STUDENT_LIST_FILTERS} value={filters} applied={page?.period.schoolYear ? { schoolYear: page.period.schoolYear } : undefined} />
      <form
        className="mb-4 flex gap-2"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setPaging({ keyword: draft.trim() || undefined, current: undefined });
        }}
      >
        <Input className="w-64" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder={t('studentList.keyword')} aria-label={t('studentList.keyword')} data-testid="student-keyword" />
        <Button type="submit" variant="secondary">
          <Search aria-hidden />
          {t('studentList.search')}
        </Button>
      </form>
      <DataTable
        aria-label={t('studentList.title')}
        columns={columns}
        data={page?.records}
        rowKey="studentId"
        loading={query.isFetching}
        onRowClick={(row) => go(links.studentDetail(row.studentId))}
        pagination={{
          current,
          size,
          total: page?.total ?? 0,
          onChange: (c, s) => setPaging({ current: String(c), size: String(s) }),
        }}
      />
    </div>
  );
}
