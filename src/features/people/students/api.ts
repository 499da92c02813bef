import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pageApi, type SchoolFamily } from '@/domain/menus/access';
import type { PersonOption, StudentDetail, StudentFormOptions, StudentRecord, StudentSave } from '@/domain/people/students';
import { get, post } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';


const cache = new Map<SchoolFamily, Resource<StudentRecord, StudentSave, StudentDetail>>();

/** Students (user/student) of a family: list rows, and the record with its class history. */
export function studentResource(family: SchoolFamily): Resource<StudentRecord, StudentSave, StudentDetail> {
  let r = cache.get(family);
  if (!r) cache.set(family, (r = createResource<StudentRecord, StudentSave, StudentDetail>({ base: pageApi(`${family}.user.student`) })));
  return r;
}

/** The grades and classes the filters and the form choose from (the actor's data scope). */
export function useStudentOptions(family: SchoolFamily) {
  const r = studentResource(family);
  return useQuery({ queryKey: [...r.key, 'options'], queryFn: () => get<StudentFormOptions>(`${r.base}/options`) });
}

/** Parents of the school matching a name or mobile (the form's parent picker). */
export const searchParents = (family: SchoolFamily) => (keyword: string) => get<PersonOption[]>(`${studentResource(family).base}/parent-options`, { keyword });

/** Moves students to a class (the history keeps the previous one); the dialog shows a refusal itself. */
export function useTransfer(family: SchoolFamily) {
  const client = useQueryClient();
  const r = studentResource(family);
  return useMutation({
    mutationFn: ({ studentIds, classId }: { studentIds: string[]; classId: string }) => post<{ moved: number }>(`${r.base}/transfer`, { studentIds, classId }),
    onSuccess: () => client.invalidateQueries({ queryKey: r.key }),
    meta: { silent: true },
  });
}
