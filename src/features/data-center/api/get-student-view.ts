import { useQuery } from '@tanstack/react-query';
import type { StudentView } from '@/domain/data-center/types';
import { get } from '@/lib/api-client';
import { dataCenterApi } from '../family';
import type { Family } from '@/domain/menus/access';
import { dataCenterKeys } from './keys';

/** GET …/dataCenter/student/:id: the student and every valid result across years and plans. */
export function getStudentView(family: Family, id: string): Promise<StudentView> {
  return get<StudentView>(`${dataCenterApi(family)}/student/${encodeURIComponent(id)}`);
}

export function useStudentViewQuery(family: Family, id: string) {
  return useQuery({
    queryKey: dataCenterKeys.view(family, 'studentDetail', {}, { id }),
    queryFn: () => getStudentView(family, id),
    enabled: Boolean(id),
  });
}
