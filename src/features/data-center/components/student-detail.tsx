import { useAtomValue } from 'jotai';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { StudentHistoryRow } from '@/domain/data-center/types';
import { reportPath } from '@/domain/physique-results/report-link';
import { ITEM_KEYS, type ItemKey } from '@/domain/physique/standard';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { PageHeader } from '@/components/page-header/page-header';
import { useStudentViewQuery } from '../api/get-student-view';
import { historyOption, radarOption } from '../charts/options';
import { formatScore, gradeLabel, itemShortLabel } from '../format';
import { useDrill } from '../hooks/use-drill';
import { dataCenterFamilyAtom } from '../atoms';
import { useFilterUrlSync } from '../hooks/use-filter-url-sync';
import { useSemanticColors } from '../hooks/use-level-colors';
import { ChartCard } from './chart-card';
import { DashboardChart } from './dashboard-chart';
import { DrillBreadcrumbs } from './drill-breadcrumbs';
import { ViewBody } from './view-states';
import { CLASS_DETAIL_FILTERS } from './class-dashboard';

const col = createDataTableColumnHelper<StudentHistoryRow>();
const historyKey = (r: StudentHistoryRow) => r.resultId;
const NOWRAP = 'whitespace-nowrap';

/**
 * One student (/k12/dataCenter/student/detail/:id): the trend of totals across years and plans, the latest result
 * against the class average, every result in a table, and `report` (the physique report, composed by the app).
 */
export function StudentDetail({ studentId, report }: { studentId: string; report?: ReactNode }) {
  const { t } = useTranslation(['dashboard', 'physique']);
  // The student view ignores filters, but keeps the period in the URL for the links back up.
  const filters = useFilterUrlSync(CLASS_DETAIL_FILTERS);
  const family = useAtomValue(dataCenterFamilyAtom);
  const query = useStudentViewQuery(family, studentId);
  const view = query.data;
  const { links } = useDrill(filters, view?.student.orgId);
  const colors = useSemanticColors();

  const derived = useMemo(() => {
    if (!view) return null;
    const history = view.history;
    const latest = history.at(-1);
    const items: ItemKey[] = ITEM_KEYS.filter((k) => k !== 'bmi' && history.some((h) => h.items[k]?.score != null));
    const radarItems = items.filter((k) => latest?.items[k]?.score != null);
    return {
      items,
      newestFirst: [...history].reverse(),
      history: historyOption(t, colors, history),
      radar:
        latest && radarItems.length >= 3
          ? radarOption(t, colors, radarItems, [
              { name: t('studentView.latest', { plan: latest.planName }), values: Object.fromEntries(radarItems.map((k) => [k, latest.items[k]?.score ?? null])) },
              ...(view.classAverage ? [{ name: t('studentView.classAverage'), values: view.classAverage.items }] : []),
            ])
          : null,
    };
  }, [view, t, colors]);

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('academicYear', { header: t('studentView.year'), meta: { className: NOWRAP } }),
        col.accessor('semesterCode', { header: t('filter.semesterCode'), meta: { className: NOWRAP }, cell: ({ getValue }) => t(`semester.${getValue()}`) }),
        col.accessor('planName', { header: t('filter.planId'), meta: { className: NOWRAP } }),
        col.accessor('gradeNo', { header: t('ranking.grade'), meta: { className: NOWRAP }, cell: ({ getValue }) => gradeLabel(t, getValue()) }),
        col.accessor('className', { header: t('ranking.class'), meta: { className: NOWRAP } }),
        // BMI is a measurement (kg/m²), not a score like the other item columns.
        col.accessor((r) => r.items.bmi?.raw ?? null, {
          id: 'bmi',
          header: itemShortLabel(t, 'bmi'),
          meta: { align: 'right', className: `${NOWRAP} tabular-nums` },
          cell: ({ getValue }) => formatScore(getValue()),
        }),
        ...(derived?.items ?? []).map((item) =>
          col.accessor((r) => r.items[item]?.score ?? null, {
            id: item,
            header: itemShortLabel(t, item),
            meta: { align: 'right', className: `${NOWRAP} tabular-nums` },
            cell: ({ getValue }) => formatScore(getValue()),
          }),
        ),
        col.accessor('total', { header: t('physique:score.total'), meta: { align: 'right', className: `${NOWRAP} font-semibold tabular-nums` }, cell: ({ getValue }) => formatScore(getValue()) }),
        col.accessor('level', { header: t('physique:score.level'), meta: { className: NOWRAP }, cell: ({ getValue }) => (getValue() ? t(`physique:level.${getValue()}`) : '—') }),
        col.display({
          id: 'report',
          header: t('studentView.report'),
          meta: { className: NOWRAP },
          cell: ({ row }) => (
            <Link className="text-primary hover:underline" to={reportPath({ studentId, gradeNo: row.original.gradeNo, planId: row.original.planId })} data-testid="history-report">
              {t('studentView.openReport')}
            </Link>
          ),
        }),
      ]),
    [t, derived?.items, studentId],
  );

  const s = view?.student;
  const title = s ? s.name : t('studentView.title');
  return (
    <div data-testid="dc-student">
      <PageHeader
        title={title}
        back={{ safe: true }}
        description={s ? t('studentView.identity', { org: s.orgName, grade: gradeLabel(t, s.gradeNo), class: s.className, no: s.studentNo ?? s.regNo }) : undefined}
      />
      <DrillBreadcrumbs
        items={[
          { label: s?.orgName ?? t('school.title'), to: links.school },
          ...(s ? [{ label: gradeLabel(t, s.gradeNo), to: links.grade(s.gradeNo) }, { label: s.className, to: links.classDetail(s.classId) }] : []),
          { label: title },
        ]}
      />
      <ViewBody query={query} data={view && derived && { view, derived }}>
        {({ view, derived }) => (
          <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
            <div className="grid gap-4 xl:grid-cols-3">
              <ChartCard className="xl:col-span-2" title={t('studentView.history')} description={t('studentView.historyHint', { n: view.history.length })}>
                <DashboardChart option={derived.history} height={300} aria-label={t('studentView.history')} />
              </ChartCard>
              <ChartCard title={t('studentView.versusClass')}>
                {derived.radar ? (
                  <DashboardChart option={derived.radar} height={300} aria-label={t('studentView.versusClass')} />
                ) : (
                  <p className="py-16 text-center text-sm text-muted-foreground">{t('studentView.noRadar')}</p>
                )}
              </ChartCard>
            </div>
            <ChartCard title={t('studentView.results')} data-testid="student-history">
              <DataTable aria-label={t('studentView.results')} columns={columns} data={derived.newestFirst} rowKey={historyKey} phone={{ mode: 'scroll' }} />
            </ChartCard>
            {report}
          </div>
        )}
      </ViewBody>
    </div>
  );
}
