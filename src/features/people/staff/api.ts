import { useQuery } from '@tanstack/react-query';
import { pageApi, type SchoolFamily } from '@/domain/menus/access';
import type { StaffCreate, StaffFormOptions, StaffListRow, StaffRow } from '@/domain/people/staff';
import { get } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';


const cache = new Map<SchoolFamily, Resource<StaffListRow, StaffCreate, StaffRow>>();

/** Staff (user/teacher) of a family: list rows without identity numbers, the record with them. */
export function staff(family: SchoolFamily): Resource<StaffListRow, StaffCreate, StaffRow> {
  let r = cache.get(family);
  if (!r) cache.set(family, (r = createResource<StaffListRow, StaffCreate, StaffRow>({ base: pageApi(`${family}.user.teacher`) })));
  return r;
}

/** The roles and classes the staff form and filters choose from. */
export function useStaffOptions(family: SchoolFamily) {
  const api = staff(family);
  return useQuery({ queryKey: [...api.key, 'options'], queryFn: () => get<StaffFormOptions>(`${api.base}/options`) });
}
