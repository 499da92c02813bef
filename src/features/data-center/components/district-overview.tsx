import { useCallback, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFigureFormats } from '@/lib/number-format';
import { useNavigate } from 'react-router-dom';
import { ORG_TYPE } from '@/domain/constants';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { UnitRow } from '@/domain/data-center/types';
import { getCatalogEntry } from '@/domain/menus/catalog';
import type { DistrictOverview, DistrictSchoolRow } from '@/domain/data-center/district';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { menuLabel } from '@/components/layout/menu-label';
import { PageHeader } from '@/components/page-header/page-header';
import { QueryState } from '@/components/query-state/query-state';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { PermissionGate } from '@/components/permission-gate/permission-gate';
import { participationOption, schoolTrendOption, splitSchoolYearId, unitListCharts, weakestOption } from '../charts/options';
import { ChartCard } from './chart-card';
import { DashboardChart } from './dashboard-chart';
import { FilterBar } from './filter-bar';
import { ItemHeatTable } from './item-heat-table';
import { ScreenLinksButton } from './screen-links';
import { dataCenterPaths, dataCenterPermissions } from '../family';
import { DISTRICT_FILTERS } from '../filters';
import { useFilterUrlSync } from '../hooks/use-filter-url-sync';
import { withQuery } from '../hooks/use-drill';
import { useSemanticColors } from '../hooks/use-level-colors';
import { DISTRICT_OVERVIEW, useDistrictOverview } from '../api/get-district-view';

const col = createDataTableColumnHelper<DistrictSchoolRow>();
/** The district's own figures above the table. */
const TOTALS = ['schools', 'students', 'tested', 'meanTotal', 'passRate', 'devicesOnline'] as const;


const num = (text: string) => <span className="tabular-nums">{text}</span>;


/**
 * A school's data centre (its school view under the overview's routes) for the filters the district view shows:
 * the period the figures are for (defaults applied) and the gender, so the school's page shows the same students.
 */
export function schoolDataCentreLink(orgId: string, applied: DataCenterFilter, patch: DataCenterFilter = {}): string {
  const { schoolYear, semesterCode, planId, gender } = { ...applied, ...patch };
  return withQuery(dataCenterPaths('admin', orgId).school!, { orgId, schoolYear, semesterCode, planId, gender });
}

/** A school row as the data centre's unit charts take it (schools side by side, levels per school, items). */
function unitRowOf(s: DistrictSchoolRow): UnitRow {
  return {
    id: s.orgId,
    name: s.name,
    orgId: s.orgId,
    orgName: s.name,
    gradeNo: null,
    tested: s.tested,
    assessed: s.assessed,
    meanTotal: s.meanTotal,
    excellentRate: s.excellentRate,
    goodRate: s.goodRate,
    passRate: s.passRate,
    rank: null,
    levels: s.levels,
    items: s.items,
  };
}

/** Every chart of the district view from its one answer. */
function useDistrictCharts(view: DistrictOverview | undefined) {
  const { t } = useTranslation(['dashboard', 'physique', 'dataCenter']);
  const colors = useSemanticColors();
  return useMemo(() => {
    if (!view) return null;
    const tested = view.schools.filter((s) => s.tested > 0);
    const units = unitListCharts(t, colors, tested.map(unitRowOf));
    return {
      ...units,
      tested,
      trend: schoolTrendOption(t, colors, view.trend, tested.map((s) => ({ orgId: s.orgId, name: s.name }))),
      weakest: weakestOption(t, colors, view.weakestItems),
      participation: participationOption(t, colors, view.schools.map((s) => ({ ...s, orgId: s.orgId, name: s.name }))),
    };
  }, [view, t, colors]);
}

/**
 * admin/dataCenter/overview (docs/product-rules.md#district-overview): the management organisation's schools side by
 * side for the latest school year with results (or the data-centre filters in the URL): schools compared, level
 * distribution per school, the trend over school years, weak items across schools and participation, then the
 * table. A chart's school (a bar, a line's point, a row) opens that school's data centre, read-only, with the same
 * filters.
 */
/** `extra`: cards of other areas the app composes in under the totals (the district's warnings per school). */
export function DistrictOverviewScreen({ extra }: { extra?: ReactNode } = {}) {
  const { t } = useTranslation(['dataCenter', 'menus', 'dashboard']);
  const navigate = useNavigate();
  const filters = useFilterUrlSync(DISTRICT_FILTERS);
  const query = useDistrictOverview(filters);
  const f = useFigureFormats();
  const entry = getCatalogEntry(DISTRICT_OVERVIEW)!;
  const view = query.data;
  const charts = useDistrictCharts(view);
  const refreshing = query.isFetching && query.isPlaceholderData;
  // The charts of schools side by side grow with the district (a school's bar or row stays legible).
  const chartHeight = Math.max(300, (charts?.tested.length ?? 0) * 30 + 90);
  const applied = useMemo<DataCenterFilter>(() => ({ ...view?.filters, ...filters }), [view?.filters, filters]);
  const toSchool = useCallback((orgId: string) => void navigate(schoolDataCentreLink(orgId, applied)), [navigate, applied]);
  // A point of the trend names its school year too: that school's data centre for that year.
  const toSchoolYear = useCallback(
    (id: string) => {
      const { orgId, schoolYear } = splitSchoolYearId(id);
      void navigate(schoolDataCentreLink(orgId, applied, { schoolYear, planId: undefined }));
    },
    [navigate, applied],
  );

  const columns = useMemo(
    () =>
      col.columns([
        col.accessor('name', {
          header: t('district.school'),
          cell: ({ row }) => (
            <span className="flex items-center gap-2">
              <span className="font-medium">{row.original.name}</span>
              <Badge variant="outline">{t(row.original.type === ORG_TYPE.university ? 'district.university' : 'district.k12')}</Badge>
            </span>
          ),
        }),
        col.accessor('students', { header: t('district.students'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.count(getValue())) }),
        col.accessor('tested', { header: t('district.tested'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.count(getValue())) }),
        col.accessor('meanTotal', { header: t('district.meanTotal'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.oneDecimal(getValue())) }),
        col.accessor('excellentRate', { header: t('district.excellentRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.share(getValue())) }),
        col.accessor('goodRate', { header: t('district.goodRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.share(getValue())) }),
        col.accessor('passRate', { header: t('district.passRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.share(getValue())) }),
        col.accessor('failRate', { header: t('district.failRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.share(getValue())) }),
        col.accessor('homeworkRate', { header: t('district.homeworkRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.share(getValue())) }),
        col.accessor('contestRate', { header: t('district.contestRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.share(getValue())) }),
        col.display({
          id: 'devices',
          header: t('district.devicesOnline'),
          meta: { align: 'right' },
          cell: ({ row }) => num(`${f.count(row.original.devicesOnline)} / ${f.count(row.original.devices)}`),
        }),
      ]),
    [t, f],
  );

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="district-overview">
      <QueryState query={query} data={view && charts ? { view, charts } : undefined}>
        {({ view, charts }) => (
          <>
            <PageHeader
              title={menuLabel(t, entry)}
              description={view.period.academicYear ? t('district.description', { year: view.period.academicYear, org: view.scope.orgName }) : t('district.noResults')}
              className="pb-0"
              actions={
                <PermissionGate permission={dataCenterPermissions('admin').screenLink}>
                  <ScreenLinksButton />
                </PermissionGate>
              }
            />
            <FilterBar show={DISTRICT_FILTERS} value={filters} applied={view.filters} />
            <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" data-testid="district-totals">
              {TOTALS.map((key) => {
                const value = {
                  schools: f.count(view.schools.length),
                  students: f.count(view.total.students),
                  tested: f.count(view.total.tested),
                  meanTotal: f.oneDecimal(view.total.meanTotal),
                  passRate: f.share(view.total.passRate),
                  devicesOnline: `${f.count(view.total.devicesOnline)} / ${f.count(view.total.devices)}`,
                }[key];
                return (
                <Card key={key}>
                  <CardContent className="grid gap-1 py-4">
                    <span className="text-sm text-muted-foreground">{t(`district.${key}`)}</span>
                    <span className="text-2xl font-semibold tabular-nums">{value}</span>
                  </CardContent>
                </Card>
                );
              })}
            </div>
            {extra}
            {charts.tested.length ? (
              <>
                <div className="grid gap-4 xl:grid-cols-2">
                  <ChartCard title={t('district.chart.schools')} description={t('district.chart.drillHint')} data-testid="district-chart-schools">
                    <DashboardChart option={charts.units} height={chartHeight} loading={refreshing} onSelect={toSchool} aria-label={t('district.chart.schools')} />
                  </ChartCard>
                  <ChartCard title={t('district.chart.levels')} description={t('district.chart.drillHint')} data-testid="district-chart-levels">
                    <DashboardChart option={charts.levels} height={chartHeight} loading={refreshing} onSelect={toSchool} aria-label={t('district.chart.levels')} />
                  </ChartCard>
                </div>
                <div className="grid gap-4 xl:grid-cols-2">
                  <ChartCard title={t('district.chart.trend')} description={t('district.chart.trendHint')} data-testid="district-chart-trend">
                    <DashboardChart option={charts.trend} height={chartHeight} loading={refreshing} onSelect={toSchoolYear} aria-label={t('district.chart.trend')} />
                  </ChartCard>
                  <ChartCard title={t('district.chart.participation')} description={t('district.chart.participationHint')} data-testid="district-chart-participation">
                    <DashboardChart option={charts.participation} height={chartHeight} loading={refreshing} onSelect={toSchool} aria-label={t('district.chart.participation')} />
                  </ChartCard>
                </div>
                <div className="grid gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
                  <ChartCard title={t('district.chart.weakest')} description={t('dashboard:school.weakestHint')} data-testid="district-chart-weakest">
                    <DashboardChart option={charts.weakest} height={Math.max(220, view.weakestItems.length * 40)} loading={refreshing} aria-label={t('district.chart.weakest')} />
                  </ChartCard>
                  <ChartCard title={t('district.chart.itemsBySchool')} description={t('district.chart.drillHint')} data-testid="district-items-by-school">
                    <ItemHeatTable
                      rowHeader={t('district.school')}
                      rows={charts.tested.map((s) => ({ id: s.orgId, label: s.name, items: s.items }))}
                      items={charts.items}
                      onRowClick={toSchool}
                    />
                  </ChartCard>
                </div>
              </>
            ) : null}
            <Card>
              <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-2" data-testid="district-schools">
                <p className="text-sm text-muted-foreground">{t('district.hint')}</p>
                <DataTable
                  aria-label={menuLabel(t, entry)}
                  columns={columns}
                  data={view.schools}
                  rowKey="orgId"
                  loading={query.isFetching}
                  onRowClick={(row) => toSchool(row.orgId)}
                  phone={{ mode: 'scroll' }}
                />
              </CardContent>
            </Card>
          </>
        )}
      </QueryState>
    </div>
  );
}
