import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePaging } from '@/components/data-table/data-table-pagination';
import { getCatalogEntry } from '@/domain/menus/catalog';
import type { ResultRow } from '@/domain/physique-results/types';
import { menuLabel } from '@/components/layout/menu-label';
import { PageHeader } from '@/components/page-header/page-header';
import { usePermission } from '@/components/permission-gate/permission-gate';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useShownData } from '@/lib/use-shown-data';
import { useSchoolOptionsQuery } from '../api/get-filter-options';
import { useResultsQuery } from '../api/search-results';
import { useSetResultsInvalidMutation } from '../api/set-results-invalid';
import { canWriteScores } from '@/domain/physique-results/write-access';
import { buttonPermission } from '../family';
import type { Family } from '@/domain/menus/access';
import { InvalidConfirm } from './invalid-confirm';
import { ScoreExportButton } from './score-export-button';
import { ResultTable } from './result-table';
import { ScoreFilters, type ScoreFilterValues } from './score-filters';
import { ScoreSummary } from './score-summary';

const page = 'test.scoreSearch';

/**
 * organizeTest/scoreSearch (docs/product-rules.md#physique-results: score search): filters (the current school year to start with), aggregates, results with
 * every item, export, invalid/restore.
 */
export function ScoreSearchScreen({ family }: { family: Family }) {
  const { t } = useTranslation(['physiqueResultsUi', 'menus']);
  const options = useSchoolOptionsQuery(family);
  const current = options.data?.schoolYears.find((y) => y.current)?.id;
  const entry = getCatalogEntry(`${family}.${page}`);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="score-search">
      {options.isPending && family !== 'admin' ? (
        <>
          <PageHeader title={entry ? menuLabel(t, entry) : t('search.title')} description={t('search.description')} className="pb-0" />
          <Skeleton className="h-96 w-full" />
        </>
      ) : (
        <ScoreSearchBody key={current ?? ''} family={family} initial={current ? { schoolYearId: current } : {}} />
      )}
    </div>
  );
}

function ScoreSearchBody({ family, initial }: { family: Family; initial: ScoreFilterValues }) {
  const { t } = useTranslation(['physiqueResultsUi', 'menus']);
  const can = {
    export: usePermission(buttonPermission(family, page, 'export')),
    invalid: usePermission(buttonPermission(family, page, 'invalid')) && canWriteScores(family),
    valid: usePermission(buttonPermission(family, page, 'valid')) && canWriteScores(family),
  };
  const [filters, setFilters] = useState<ScoreFilterValues>(initial);
  const { paging, toFirstPage, pagination } = usePaging();
  const query = useResultsQuery(family, 'scoreSearch', { ...paging, ...filters });
  // A refused filter keeps the last cards and rows on screen and says which filter, instead of blanking them.
  const { data, refusedField } = useShownData(query);
  const toggle = useSetResultsInvalidMutation(family, 'scoreSearch');
  const [target, setTarget] = useState<ResultRow | null>(null);
  const onToggle = useCallback((row: ResultRow) => setTarget(row), []);
  const entry = getCatalogEntry(`${family}.${page}`);

  return (
    <>
      <PageHeader
        title={entry ? menuLabel(t, entry) : t('search.title')}
        description={t('search.description')}
        className="pb-0"
        actions={
          can.export ? (
            <ScoreExportButton family={family} filter={filters} />
          ) : null
        }
      />
      <Card>
        <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
          <ScoreFilters
            family={family}
            value={filters}
            onChange={(f) => {
              setFilters(f);
              toFirstPage();
            }}
            refused={refusedField && query.error instanceof Error ? { field: refusedField, message: query.error.message } : undefined}
            defaultYear={data?.defaultYear}
          />
          <ScoreSummary summary={data?.summary} />
          <ResultTable
            aria-label={t('search.title')}
            rows={data?.records}
            loading={query.isFetching}
            showPlan
            showSchool={family === 'admin'}
            canInvalid={can.invalid}
            canValid={can.valid}
            onToggleInvalid={can.invalid || can.valid ? onToggle : undefined}
            pagination={pagination(data?.total ?? 0)}
          />
        </CardContent>
      </Card>
      <InvalidConfirm
        target={target}
        onClose={() => setTarget(null)}
        onConfirm={() => toggle.mutateAsync({ ids: [target!.id], invalid: !target!.invalid })}
      />
    </>
  );
}
