import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePaging } from '@/components/data-table/data-table-pagination';
import type { ResultRow } from '@/domain/physique-results/types';
import { usePermission } from '@/components/permission-gate/permission-gate';
import { ScoreExportButton } from './score-export-button';
import { useResultsQuery } from '../api/search-results';
import { useSetResultsInvalidMutation } from '../api/set-results-invalid';
import { canWriteScores } from '@/domain/physique-results/write-access';
import { buttonPermission, pageViewPermission } from '../family';
import type { Family } from '@/domain/menus/access';
import { InvalidConfirm } from './invalid-confirm';
import { ResultTable } from './result-table';
import { ScoreFilters, type ScoreFilterValues } from './score-filters';
import { ScoreSummary } from './score-summary';

/** Results of one plan (the plan detail's results tab), read through score search with the plan fixed. */
export function PlanResults({ family, planId, version = 0 }: { family: Family; planId: string; version?: number }) {
  const { t } = useTranslation('physiqueResultsUi');
  const page = 'test.scoreSearch';
  const canSearch = usePermission(pageViewPermission(family, page));
  const can = {
    export: usePermission(buttonPermission(family, page, 'export')),
    invalid: usePermission(buttonPermission(family, page, 'invalid')) && canWriteScores(family),
    valid: usePermission(buttonPermission(family, page, 'valid')) && canWriteScores(family),
  };
  const [filters, setFilters] = useState<ScoreFilterValues>({});
  const { paging, toFirstPage, pagination } = usePaging();
  // `version` changes after an import or sync, so the list refetches.
  const query = useResultsQuery(family, 'scoreSearch', { ...paging, ...filters, planId }, canSearch, version);
  const toggle = useSetResultsInvalidMutation(family, 'scoreSearch');
  const [target, setTarget] = useState<ResultRow | null>(null);
  const onToggle = useCallback((row: ResultRow) => setTarget(row), []);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="plan-results">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <ScoreFilters
          family={family}
          value={filters}
          hide={['school', 'schoolYear', 'semester', 'plan']}
          onChange={(f) => {
            setFilters(f);
            toFirstPage();
          }}
        />
        {can.export ? (
          <ScoreExportButton family={family} filter={{ ...filters, planId }} />
        ) : null}
      </div>
      <ScoreSummary summary={query.data?.summary} />
      <ResultTable
        aria-label={t('search.title')}
        rows={query.data?.records}
        loading={query.isFetching}
        canInvalid={can.invalid}
        canValid={can.valid}
        onToggleInvalid={can.invalid || can.valid ? onToggle : undefined}
        pagination={pagination(query.data?.total ?? 0)}
      />
      <InvalidConfirm
        target={target}
        onClose={() => setTarget(null)}
        onConfirm={() => toggle.mutateAsync({ ids: [target!.id], invalid: !target!.invalid })}
      />
    </div>
  );
}
