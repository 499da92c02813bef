import { useQuery } from '@tanstack/react-query';
import type { GraduationCohort, GraduationPrintQuery, GraduationRow, StudentHistory } from '@/domain/graduation/graduation';
import { pageApi, type ServedBy } from '@/domain/menus/access';
import { download, get, saveFile } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';

/** The graduation pages' families: K12 schools and universities. */
export type GraduationFamily = ServedBy<'test.graduation'>;
export const graduationKey = (family: GraduationFamily) => `${family}.test.graduation`;

const cache = new Map<GraduationFamily, Resource<GraduationRow, never>>();

/** physiqueManage/graduation (docs/product-rules.md#physique-year: Graduation): the list (`/page`) and its workbook (`/export`). */
export function graduationResource(family: GraduationFamily): Resource<GraduationRow, never> {
  let r = cache.get(family);
  if (!r) cache.set(family, (r = createResource<GraduationRow, never>({ base: pageApi(graduationKey(family)) })));
  return r;
}

/** The cohorts the list offers: graduating this school year first, then past ones. */
export function useGraduationCohorts(family: GraduationFamily) {
  const api = graduationResource(family);
  return useQuery({ queryKey: [...api.key, 'cohorts'], queryFn: () => get<GraduationCohort[]>(`${api.base}/cohorts`) });
}

export function useStudentHistory(family: GraduationFamily, studentId: string | undefined) {
  const api = graduationResource(family);
  return useQuery({ queryKey: [...api.key, 'history', studentId], queryFn: () => get<StudentHistory>(`${api.base}/history/${encodeURIComponent(studentId!)}`), enabled: Boolean(studentId) });
}

/** Downloads the record cards (PDF) of one student, a class or a cohort. */
export async function printGraduationCards(family: GraduationFamily, pick: GraduationPrintQuery): Promise<void> {
  saveFile(await download(`${graduationResource(family).base}/cards.pdf`, pick), 'graduation.pdf');
}
