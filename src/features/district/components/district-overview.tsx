import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ORG_TYPE } from '@/domain/constants';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { pageAccess } from '@/domain/menus/access';
import type { DistrictSchoolRow } from '@/domain/platform/district';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { menuLabel } from '@/components/layout/menu-label';
import { PageHeader } from '@/components/page-header/page-header';
import { QueryState } from '@/components/query-state/query-state';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { DISTRICT_OVERVIEW, useDistrictOverview } from '../api';

const col = createDataTableColumnHelper<DistrictSchoolRow>();
/** The district's own figures above the table. */
const TOTALS = ['schools', 'students', 'tested', 'meanTotal', 'passRate', 'devicesOnline'] as const;

function useFormats() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const locale = i18n.language.replace('_', '-');
    const pct = new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const int = new Intl.NumberFormat(locale);
    return {
      rate: (v: number | null) => (v == null ? '—' : pct.format(v)),
      count: (v: number) => int.format(v),
      score: (v: number | null) => (v == null ? '—' : v.toFixed(1)),
    };
  }, [i18n.language]);
}

const num = (text: string) => <span className="tabular-nums">{text}</span>;

/**
 * admin/dataCenter/overview (docs/product-rules.md#district-overview): the management organisation's schools side by
 * side for the latest school year with results (or `?schoolYear=`); a row opens that school's data centre read-only.
 */
export function DistrictOverviewScreen() {
  const { t } = useTranslation(['platform', 'menu']);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const schoolYear = Number(search.get('schoolYear')) || undefined;
  const query = useDistrictOverview({ schoolYear });
  const f = useFormats();
  const entry = getCatalogEntry(DISTRICT_OVERVIEW)!;
  const drill = pageAccess(DISTRICT_OVERVIEW).paths;

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
        col.accessor('meanTotal', { header: t('district.meanTotal'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.score(getValue())) }),
        col.accessor('excellentRate', { header: t('district.excellentRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.rate(getValue())) }),
        col.accessor('goodRate', { header: t('district.goodRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.rate(getValue())) }),
        col.accessor('passRate', { header: t('district.passRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.rate(getValue())) }),
        col.accessor('failRate', { header: t('district.failRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.rate(getValue())) }),
        col.accessor('homeworkRate', { header: t('district.homeworkRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.rate(getValue())) }),
        col.accessor('contestRate', { header: t('district.contestRate'), meta: { align: 'right' }, cell: ({ getValue }) => num(f.rate(getValue())) }),
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
      <QueryState query={query} data={query.data}>
        {(view) => (
          <>
            <PageHeader
              title={menuLabel(t, entry)}
              description={view.period.academicYear ? t('district.description', { year: view.period.academicYear, org: view.scope.orgName }) : t('district.noResults')}
              className="pb-0"
            />
            <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" data-testid="district-totals">
              {TOTALS.map((key) => {
                const value = {
                  schools: f.count(view.schools.length),
                  students: f.count(view.total.students),
                  tested: f.count(view.total.tested),
                  meanTotal: f.score(view.total.meanTotal),
                  passRate: f.rate(view.total.passRate),
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
            <Card>
              <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-2">
                <p className="text-sm text-muted-foreground">{t('district.hint')}</p>
                <DataTable
                  aria-label={menuLabel(t, entry)}
                  columns={columns}
                  data={view.schools}
                  rowKey="orgId"
                  loading={query.isFetching}
                  onRowClick={(row) => {
                    const params = new URLSearchParams({ orgId: row.orgId, ...(view.period.schoolYear ? { schoolYear: String(view.period.schoolYear) } : {}) });
                    void navigate(`${drill.route('school', row.orgId)}?${params.toString()}`);
                  }}
                />
              </CardContent>
            </Card>
          </>
        )}
      </QueryState>
    </div>
  );
}
