import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ScoreFilter } from '@/domain/physique-results/schemas';
import type { ScoreSearchPage } from '@/domain/physique-results/types';
import { get } from '@/lib/api-client';
import { RESULT_LIST_PATH, scoresApi, type ResultList } from '../family';
import type { Family } from '@/domain/menus/access';

export type ResultQuery = Partial<ScoreFilter> & { current: number; size: number };

export const resultsKey = (family: Family) => ['physiqueResults', family] as const;

/** GET …/organizeTest/scoreSearch/page or …/physiqueManage/testResult/page: a page of results plus the filter's aggregates. */
export function searchResults(family: Family, list: ResultList, query: ResultQuery): Promise<ScoreSearchPage> {
  return get<ScoreSearchPage>(`${scoresApi(family)}${RESULT_LIST_PATH[list]}/page`, { ...query });
}

/** `version` only joins the cache key: bumping it refetches (e.g. after an import into the plan). */
export function useResultsQuery(family: Family, list: ResultList, query: ResultQuery, enabled = true, version = 0) {
  return useQuery({
    queryKey: [...resultsKey(family), list, query, version],
    queryFn: () => searchResults(family, list, query),
    placeholderData: keepPreviousData,
    enabled,
  });
}
