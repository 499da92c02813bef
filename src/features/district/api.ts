import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { pageApi } from '@/domain/menus/access';
import type { DistrictOverview } from '@/domain/platform/district';
import { get } from '@/lib/api-client';

export const DISTRICT_OVERVIEW = 'admin.dataCenter.overview';

export interface DistrictPeriod {
  schoolYear?: number;
  semesterCode?: number;
}

/** The schools side by side for one period: one request. */
export function useDistrictOverview(period: DistrictPeriod) {
  return useQuery({
    queryKey: ['district', 'overview', period],
    queryFn: () => get<DistrictOverview>(pageApi(DISTRICT_OVERVIEW), { ...period }),
    placeholderData: keepPreviousData,
  });
}
