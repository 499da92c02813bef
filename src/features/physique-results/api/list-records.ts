import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import type { TestRecordFilter } from '@/domain/physique-results/schemas';
import type { TestRecordRow } from '@/domain/physique-results/types';
import { get } from '@/lib/api-client';
import { RECORD_PATH, scoresApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { resultsKey } from './search-results';

export type RecordQuery = Partial<TestRecordFilter> & { current: number; size: number };

export const recordsKey = (family: Family) => [...resultsKey(family), 'records'] as const;

/** GET …/selfTest/testRecord/page: single-item test records, filtered and paged. */
export function listRecords(family: Family, query: RecordQuery): Promise<Page<TestRecordRow>> {
  return get<Page<TestRecordRow>>(`${scoresApi(family)}${RECORD_PATH}/page`, { ...query });
}

export function useRecordsQuery(family: Family, query: RecordQuery) {
  return useQuery({ queryKey: [...recordsKey(family), query], queryFn: () => listRecords(family, query), placeholderData: keepPreviousData });
}
