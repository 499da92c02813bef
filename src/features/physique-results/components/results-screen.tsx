import { useCallback, useState } from 'react';
import { FileSpreadsheet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { usePaging } from '@/components/data-table/data-table-pagination';
import { getCatalogEntry } from '@/domain/menus/catalog';
import type { ResultRow } from '@/domain/physique-results/types';
import { menuLabel } from '@/components/layout/menu-label';
import { PageHeader } from '@/components/page-header/page-header';
import { usePermission } from '@/components/permission-gate/permission-gate';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { useExportResultsMutation } from '../api/export-results';
import { useSchoolOptionsQuery } from '../api/get-filter-options';
import { useResultsQuery } from '../api/search-results';
import { useSetResultsInvalidMutation } from '../api/set-results-invalid';
import { canWriteScores } from '@/domain/physique-results/write-access';
import { buttonPermission } from '../family';
import type { Family } from '@/domain/menus/access';
import { InvalidConfirm } from './invalid-confirm';
import { ResultEditor } from './result-editor';
import { ResultTable } from './result-table';
import { ScoreFilters, type ScoreFilterValues } from './score-filters';
import { ScoreSummary } from './score-summary';

/** Permissions of the results screen: edits go with the report button, invalid/restore with report or score search's. */
export function useResultPermissions(family: Family) {
  const write = canWriteScores(family);
  const report = usePermission(buttonPermission(family, 'test.testResult', 'report')) && write;
  return {
    edit: report,
    export: usePermission(buttonPermission(family, 'test.testResult', 'export')) || report,
    invalid: (usePermission(buttonPermission(family, 'test.scoreSearch', 'invalid')) && write) || report,
    valid: (usePermission(buttonPermission(family, 'test.scoreSearch', 'valid')) && write) || report,
  };
}

/**
 * physiqueManage/testResult (docs/product-rules.md#physique-results: results screen): results of the upload year, one per student and plan; a result opens in a
 * dialog to edit raw values (rescored on save) and to set it invalid or restore it; export the national upload file.
 */
export function ResultsScreen({ family }: { family: Family }) {
  const { t } = useTranslation(['physiqueResultsUi', 'menus']);
  const options = useSchoolOptionsQuery(family);
  const current = options.data?.schoolYears.find((y) => y.current)?.id;
  const entry = getCatalogEntry(`${family}.test.testResult`);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="results-screen">
      <PageHeader title={entry ? menuLabel(t, entry) : t('results.title')} description={t('results.description')} className="pb-0" />
      {options.isPending ? <Skeleton className="h-96 w-full" /> : <ResultsBody key={current ?? ''} family={family} uploadYear={current} />}
    </div>
  );
}

function ResultsBody({ family, uploadYear }: { family: Family; uploadYear: string | undefined }) {
  const { t } = useTranslation('physiqueResultsUi');
  const can = useResultPermissions(family);
  const keep: ScoreFilterValues = uploadYear ? { schoolYearId: uploadYear } : {};
  const [filters, setFilters] = useState<ScoreFilterValues>(keep);
  const { paging, toFirstPage, pagination } = usePaging();
  const query = useResultsQuery(family, 'testResult', { ...paging, ...filters });
  const exporter = useExportResultsMutation(family, 'testResult');
  const toggle = useSetResultsInvalidMutation(family, 'testResult');
  const [target, setTarget] = useState<ResultRow | null>(null);
  const [opened, setOpened] = useState<ResultRow | null>(null);
  const onToggle = useCallback((row: ResultRow) => setTarget(row), []);
  const onEdit = useCallback((row: ResultRow) => setOpened(row), []);

  return (
    <Card>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <ScoreFilters
            family={family}
            value={filters}
            keep={keep}
            hide={['school']}
            onChange={(f) => {
              setFilters(f);
              toFirstPage();
            }}
          />
          {can.export ? (
            <Button variant="outline" loading={exporter.isPending} onClick={() => exporter.mutate(filters)} data-testid="upload-export">
              <FileSpreadsheet aria-hidden />
              {t('action.exportUpload')}
            </Button>
          ) : null}
        </div>
        <ScoreSummary summary={query.data?.summary} />
        <ResultTable
          aria-label={t('results.title')}
          rows={query.data?.records}
          loading={query.isFetching}
          showPlan
          canInvalid={can.invalid}
          canValid={can.valid}
          onToggleInvalid={can.invalid || can.valid ? onToggle : undefined}
          onEdit={onEdit}
          pagination={pagination(query.data?.total ?? 0)}
        />
        <InvalidConfirm
          target={target}
          onClose={() => setTarget(null)}
          onConfirm={() => toggle.mutateAsync({ ids: [target!.id], invalid: !target!.invalid })}
        />
        <Dialog open={opened !== null} onOpenChange={(open) => !open && setOpened(null)}>
          <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-3xl">
            <DialogHeader>
              <DialogTitle>{can.edit ? t('editor.title') : t('editor.viewTitle')}</DialogTitle>
            </DialogHeader>
            {opened ? <ResultEditor family={family} id={opened.id} editable={can.edit} canInvalid={can.invalid} canValid={can.valid} /> : null}
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
