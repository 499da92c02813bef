import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Download } from 'lucide-react';
import type { LoadSchoolRow } from '@/domain/lesson-load/reports';
import { getCatalogEntry } from '@/domain/menus/catalog';
import { createDataTableColumnHelper, DataTable } from '@/components/data-table/data-table';
import { menuLabel } from '@/components/layout/menu-label';
import { PageHeader } from '@/components/page-header/page-header';
import { PermissionGate, usePageAccess } from '@/components/permission-gate/permission-gate';
import { QueryState } from '@/components/query-state/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { toast } from '@/lib/toast';
import { exportLoadDistrict, useLoadDistrict } from './api';
import { FigureTiles, useFigureColumns } from './summary-screen';
import { TermFilter, termText } from './term-filter';

const col = createDataTableColumnHelper<LoadSchoolRow>();
const DISTRICT_KEY = 'admin.class.load';

/**
 * admin class/load (docs/product-rules.md#lesson-load: reports): the district's schools (its subtree) side by side
 * over a term — lessons, share meeting the curriculum's targets, mean bpm, densities — sortable by any column, and
 * the workbook (export button).
 */
export function DistrictLoadScreen() {
  const { t } = useTranslation(['lessonLoad', 'menus']);
  const [params, setParams] = useSearchParams();
  const access = usePageAccess(DISTRICT_KEY);
  const query = useLoadDistrict({ schoolYear: params.get('schoolYear') ?? undefined, semester: params.get('semester') ?? undefined });
  const figureColumns = useFigureColumns<LoadSchoolRow>();
  const [exporting, setExporting] = useState(false);
  const data = query.data;
  const columns = useMemo(
    () => col.columns([col.accessor('name', { header: t('summary.group.school'), enableSorting: true, cell: ({ getValue }) => <span className="font-medium">{getValue()}</span> }), ...figureColumns]),
    [t, figureColumns],
  );
  const onExport = async () => {
    setExporting(true);
    try {
      await exportLoadDistrict({ schoolYear: data?.term.schoolYear, semester: data?.term.semester });
    } catch (e) {
      toast.error((e as Error).message);
    } finally {
      setExporting(false);
    }
  };
  const withLessons = data?.schools.filter((s) => s.lessons > 0).length ?? 0;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="load-district">
      <PageHeader
        title={menuLabel(t, getCatalogEntry(DISTRICT_KEY)!)}
        description={data ? t('summary.districtTitle') + ' · ' + t('summary.description', termText(t, data.term)) : null}
        actions={
          <PermissionGate permission={access.buttons.export ?? ''}>
            <Button variant="outline" onClick={() => void onExport()} loading={exporting} disabled={!data} data-testid="load-district-export">
              <Download aria-hidden />
              {t('summary.export')}
            </Button>
          </PermissionGate>
        }
        className="pb-0"
      />
      <div className="flex flex-wrap items-center gap-2">
        <TermFilter
          term={data?.term}
          onChange={(v) => {
            const next = new URLSearchParams(params);
            next.set('schoolYear', String(v.schoolYear));
            next.set('semester', String(v.semester));
            setParams(next, { replace: true });
          }}
        />
        {data ? (
          <span className="text-sm text-muted-foreground">
            {t('summary.schoolsWithLessons')}: {withLessons} / {data.schools.length}
          </span>
        ) : null}
      </div>
      <QueryState query={query} data={data}>
        {(view) => (
          <>
            <FigureTiles figures={view.total} testId="load-district-total" />
            <Card className="min-w-0 py-4">
              <CardContent className="px-4">
                <DataTable columns={columns} data={view.schools} rowKey="orgId" aria-label={t('summary.districtTitle')} />
              </CardContent>
            </Card>
          </>
        )}
      </QueryState>
    </div>
  );
}
