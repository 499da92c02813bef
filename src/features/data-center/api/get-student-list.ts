import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DataCenterFilter } from '@/domain/data-center/filters';
import type { StudentListPage } from '@/domain/data-center/types';
import { get } from '@/lib/api-client';
import { dataCenterApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { filtersToParams } from '../filters';
import { dataCenterKeys } from './keys';

export interface StudentListPaging {
  current: number;
  size: number;
  keyword?: string;
}

/** GET …/dataCenter/student: students of the scope with their latest valid result of the period, paged. */
export function getStudentList(family: Family, filters: DataCenterFilter, paging: StudentListPaging): Promise<StudentListPage> {
  return get<StudentListPage>(`${dataCenterApi(family)}/student`, { ...filtersToParams(filters), ...paging });
}

export function useStudentListQuery(family: Family, filters: DataCenterFilter, paging: StudentListPaging) {
  return useQuery({
    queryKey: dataCenterKeys.view(family, 'student', filters, { ...paging }),
    queryFn: () => getStudentList(family, filters, paging),
    placeholderData: keepPreviousData,
  });
}
