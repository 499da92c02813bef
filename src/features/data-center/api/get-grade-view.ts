import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { GradeView } from '@/domain/data-center/types';
import { get } from '@/lib/api-client';
import { dataCenterApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { filtersToParams } from '../filters';
import { dataCenterKeys } from './keys';

/** GET …/dataCenter/grade: one grade's figures, its classes side by side and the score distributions. */
export function getGradeView(family: Family, filters: DataCenterFilter): Promise<GradeView> {
  return get<GradeView>(`${dataCenterApi(family)}/grade`, filtersToParams(filters));
}

export function useGradeViewQuery(family: Family, filters: DataCenterFilter) {
  return useQuery({
    queryKey: dataCenterKeys.view(family, 'grade', filters),
    queryFn: () => getGradeView(family, filters),
    placeholderData: keepPreviousData,
  });
}
