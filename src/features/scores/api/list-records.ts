import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '@/domain/api';
import type { TestRecordFilter } from '@/domain/physique-results/schemas';
import type { TestRecordRow } from '@/domain/physique-results/types';
import { get } from '@/lib/api-client';
import { RECORD_PATH, scoresApi, type ScoreFamily } from '../family';
import { resultsKey } from './search-results';

export type RecordQuery = Partial<TestRecordFilter> & { current: number; size: number };

export const recordsKey = (family: ScoreFamily) => [...resultsKey(family), 'records'] as const;

/** GET …/selfTest/testRecord/page: single-item test records, filtered and paged. */
export function listRecords(family: ScoreFamily, query: RecordQuery): Promise<Page<TestRecordRow>> {
  return get<Page<TestRecordRow>>(`${scoresApi(family)}${RECORD_PATH}/page`, { ...query });
}

export function useRecordsQuery(family: ScoreFamily, query: RecordQuery) {
  return useQuery({ queryKey: [...recordsKey(family), query], queryFn: () => listRecords(family, query), placeholderData: keepPreviousData });
}
