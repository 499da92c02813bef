import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { ClassListView } from '@/domain/data-center/types';
import { get } from '@/lib/api-client';
import { dataCenterApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { filtersToParams } from '../filters';
import { dataCenterKeys } from './keys';

/** GET …/gx/dataCenter/college: the university's colleges side by side (the class list's shape, one row per college). */
export function getCollegeList(family: Family, filters: DataCenterFilter): Promise<ClassListView> {
  return get<ClassListView>(`${dataCenterApi(family)}/college`, filtersToParams(filters));
}

export function useCollegeListQuery(family: Family, filters: DataCenterFilter) {
  return useQuery({
    queryKey: dataCenterKeys.view(family, 'college', filters),
    queryFn: () => getCollegeList(family, filters),
    placeholderData: keepPreviousData,
  });
}
