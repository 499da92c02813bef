import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Download } from 'lucide-react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import type { ClassStudentRow } from '@/domain/data-center/types';
import { ITEM_KEYS, type ItemKey } from '@/domain/physique/standard';
import { PageHeader } from '@/components/page-header/page-header';
import { PermissionGate } from '@/components/permission-gate/permission-gate';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/lib/toast';
import { useOptionsQuery } from '../api/get-options';
import { useClassViewQuery } from '../api/get-class-view';
import { levelDonutOption, radarOption } from '../charts/options';
import { exportClassXlsx } from '../export-class';
import { dataCenterPermissions } from '../family';
import { dataCenterFamilyAtom } from '../atoms';
import type { FilterKey } from '../filters';
import { formatScore, gradeLabel, scoredItemsIn } from '../format';
import { useDrill } from '../hooks/use-drill';
import { useFilterUrlSync } from '../hooks/use-filter-url-sync';
import { useSemanticColors } from '../hooks/use-level-colors';
import { ChartCard } from './chart-card';
import { ClassStudentsTable, watchLabels } from './class-students-table';
import { DashboardChart } from './dashboard-chart';
import { DrillBreadcrumbs } from './drill-breadcrumbs';
import { FilterBar } from './filter-bar';
import { KpiCards } from './kpi-cards';
import { ViewBody } from './view-states';
import { ViewMeta } from './view-meta';

/** The class view reads only the period: its class, grade and gender are fixed by the class. */
export const CLASS_DETAIL_FILTERS: readonly FilterKey[] = ['schoolYear', 'semesterCode', 'planId'];

/**
 * One class (/k12/dataCenter/class/detail/:id): headline figures, level ring, the class against its grade per item
 * (radar), the students to watch, and every student with every item in a virtualised, sortable, exportable table.
 * A student row opens the student view.
 */
export function ClassDashboard({ classId, extra }: { classId: string; /** Cards of other areas the app composes in under the headline figures (lesson load). */ extra?: ReactNode }) {
  const { t } = useTranslation(['dashboard', 'physique']);
  const filters = useFilterUrlSync(CLASS_DETAIL_FILTERS);
  const family = useAtomValue(dataCenterFamilyAtom);
  const query = useClassViewQuery(family, classId, filters);
  const view = query.data;
  const { links, go } = useDrill(useMemo(() => ({ ...view?.filters, ...filters }), [view?.filters, filters]), view?.class.orgId);
  const colors = useSemanticColors();
  const refreshing = query.isFetching && query.isPlaceholderData;
  const [exporting, setExporting] = useState(false);
  const exportCode = dataCenterPermissions(family).export('class');
  const collegeId = useOptionsQuery(family).data?.classes.find((c) => c.id === classId)?.collegeId;

  const toStudent = useCallback((row: ClassStudentRow) => go(links.studentDetail(row.studentId)), [go, links]);

  const derived = useMemo(() => {
    if (!view) return null;
    const tableItems: ItemKey[] = ITEM_KEYS.filter((k) => view.students.some((s) => s.items[k]));
    const radarItems = scoredItemsIn(view.items, view.gradeItems);
    const mean = (stats: typeof view.items) => Object.fromEntries(radarItems.map((k) => [k, stats[k]?.meanScore ?? null]));
    return {
      tableItems,
      levelDonut: levelDonutOption(t, colors, view.overview, undefined, 'stacked'),
      radar: radarOption(t, colors, radarItems, [
        { name: view.class.name, values: mean(view.items) },
        { name: t('classView.gradeAverage'), values: mean(view.gradeItems) },
      ]),
    };
  }, [view, t, colors]);

  const onExport = async () => {
    if (!view || !derived) return;
    setExporting(true);
    try {
      await exportClassXlsx(t, view, derived.tableItems);
    } catch {
      toast.error(t('classView.exportFailed'));
    } finally {
      setExporting(false);
    }
  };

  const gradeNo = view ? (view.class.testGradeNo ?? view.class.gradeNo) : undefined;
  const title = view ? view.class.name : t('classView.title');

  return (
    <div data-testid="dc-class">
      <PageHeader
        title={title}
        back={{ safe: true }}
        description={<ViewMeta scope={view?.scope} period={view?.period} asOf={view?.asOf} />}
        actions={
          <PermissionGate permission={exportCode}>
            <Button variant="outline" onClick={() => void onExport()} loading={exporting} disabled={!view?.students.length} data-testid="class-export">
              <Download aria-hidden />
              {t('classView.export')}
            </Button>
          </PermissionGate>
        }
      />
      <DrillBreadcrumbs
        items={[
          { label: view?.class.orgName ?? t('school.title'), to: links.school },
          // A university's class sits in a college: the trail goes through the college's page.
          ...(collegeId && view?.class.collegeName
            ? [{ label: view.class.collegeName, to: links.college(collegeId) }]
            : gradeNo
              ? [{ label: gradeLabel(t, gradeNo), to: links.grade(gradeNo) }]
              : []),
          { label: title },
        ]}
      />
      <FilterBar show={CLASS_DETAIL_FILTERS} value={filters} applied={view?.filters} />
      <ViewBody query={query} data={view && derived && { view, derived }}>
        {({ view, derived }) => (
          <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
            <KpiCards indicators={view.overview} />
            {extra}
            <div className="grid gap-4 xl:grid-cols-3">
              <ChartCard title={t('school.levelShare')}>
                <DashboardChart option={derived.levelDonut} height={300} loading={refreshing} aria-label={t('school.levelShare')} />
              </ChartCard>
              <ChartCard title={t('classView.versusGrade')} description={t('classView.versusGradeHint', { mean: formatScore(view.gradeOverview.meanTotal) })}>
                <DashboardChart option={derived.radar} height={300} loading={refreshing} aria-label={t('classView.versusGrade')} />
              </ChartCard>
              <ChartCard title={t('classView.watch')} description={t('classView.watchHint')} data-testid="watch-list">
                <WatchList view={view.watch} onOpen={(id) => go(links.studentDetail(id))} />
              </ChartCard>
            </div>
            <ChartCard title={t('classTable.title')} description={t('classTable.hint', { n: view.students.length })} data-testid="class-students">
              <ClassStudentsTable rows={view.students} items={derived.tableItems} loading={refreshing} onRowClick={toStudent} />
            </ChartCard>
          </div>
        )}
      </ViewBody>
    </div>
  );
}

function WatchList({ view, onOpen }: { view: { studentId: string; name: string; reasons: ClassStudentRow['watch']; total: number | null; previousTotal: number | null }[]; onOpen(id: string): void }) {
  const { t } = useTranslation(['dashboard']);
  if (!view.length) return <p className="py-10 text-center text-sm text-muted-foreground">{t('classView.watchNone')}</p>;
  return (
    <ul className="max-h-[300px] divide-y overflow-y-auto pr-1" aria-label={t('classView.watch')}>
      {view.map((w) => (
        <li key={w.studentId}>
          <button
            type="button"
            onClick={() => onOpen(w.studentId)}
            className="flex w-full items-center justify-between gap-2 rounded-md px-1 py-2 text-left hover:bg-muted/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <span className="flex min-w-0 flex-col gap-1">
              <span className="truncate font-medium">{w.name}</span>
              <span className="flex flex-wrap gap-1">
                {watchLabels(t, w.reasons).map((label, i) => (
                  <Badge key={w.reasons[i]} variant={w.reasons[i] === 'failing' ? 'destructive' : 'warning'}>
                    {label}
                  </Badge>
                ))}
              </span>
            </span>
            <span className="shrink-0 text-right text-sm tabular-nums">
              <span className="font-semibold">{formatScore(w.total)}</span>
              {w.previousTotal !== null ? <span className="block text-xs text-muted-foreground">{t('classView.previous', { total: formatScore(w.previousTotal) })}</span> : null}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
