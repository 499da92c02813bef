import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import { pageApi } from '@/domain/menus/access';
import type { DistrictOverview } from '@/domain/data-center/district';
import { get } from '@/lib/api-client';
import { filtersToParams } from '../filters';

export const DISTRICT_OVERVIEW = 'admin.dataCenter.overview';

/** The filters the district view offers (the data centre's, in its URL form): the period and gender. */
export type DistrictFilter = Pick<DataCenterFilter, 'schoolYear' | 'semesterCode' | 'gender'>;

/** The district view's query: its hook and its data preload (screen-data.ts) share it, so one key. */
export function districtOverviewQuery(filters: DistrictFilter) {
  return queryOptions({ queryKey: ['district', 'overview', filters], queryFn: () => get<DistrictOverview>(pageApi(DISTRICT_OVERVIEW), filtersToParams(filters)) });
}

/** The schools side by side for one period, with every chart's figures: one request. */
export function useDistrictOverview(filters: DistrictFilter) {
  return useQuery({ ...districtOverviewQuery(filters), placeholderData: keepPreviousData });
}
