import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { ClassListView } from '@/domain/data-center/types';
import { get } from '@/lib/api-client';
import { dataCenterApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { filtersToParams } from '../filters';
import { dataCenterKeys } from './keys';

/** GET …/dataCenter/class: every class (or school, bureau-wide) with its figures. */
export function getClassList(family: Family, filters: DataCenterFilter): Promise<ClassListView> {
  return get<ClassListView>(`${dataCenterApi(family)}/class`, filtersToParams(filters));
}

export function useClassListQuery(family: Family, filters: DataCenterFilter) {
  return useQuery({
    queryKey: dataCenterKeys.view(family, 'class', filters),
    queryFn: () => getClassList(family, filters),
    placeholderData: keepPreviousData,
  });
}
