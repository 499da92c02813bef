import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { ClassView } from '@/domain/data-center/types';
import { get } from '@/lib/api-client';
import { dataCenterApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { filtersToParams } from '../filters';
import { dataCenterKeys } from './keys';

/** GET …/dataCenter/class/:id: one class, its students with every item, the grade average and the students to watch. */
export function getClassView(family: Family, id: string, filters: DataCenterFilter): Promise<ClassView> {
  return get<ClassView>(`${dataCenterApi(family)}/class/${encodeURIComponent(id)}`, filtersToParams(filters));
}

export function useClassViewQuery(family: Family, id: string, filters: DataCenterFilter) {
  return useQuery({
    queryKey: dataCenterKeys.view(family, 'classDetail', filters, { id }),
    queryFn: () => getClassView(family, id, filters),
    placeholderData: keepPreviousData,
    enabled: Boolean(id),
  });
}
