import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { SchoolView } from '@/domain/data-center/types';
import { get } from '@/lib/api-client';
import { dataCenterApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { filtersToParams } from '../filters';
import { dataCenterKeys } from './keys';

/** GET …/dataCenter/school: every figure of the school dashboard in one answer. */
export function getSchoolView(family: Family, filters: DataCenterFilter): Promise<SchoolView> {
  return get<SchoolView>(`${dataCenterApi(family)}/school`, filtersToParams(filters));
}

/** The school view's query: the dashboard's hook and its data preload (screen-data.ts) share it, so one key. */
export function schoolViewQuery(family: Family, filters: DataCenterFilter) {
  return queryOptions({ queryKey: dataCenterKeys.view(family, 'school', filters), queryFn: () => getSchoolView(family, filters) });
}

/** The school view; the previous figures stay on screen while new filters load. */
export function useSchoolViewQuery(family: Family, filters: DataCenterFilter) {
  return useQuery({ ...schoolViewQuery(family, filters), placeholderData: keepPreviousData });
}
