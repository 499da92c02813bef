import { pageApi } from '@/domain/menus/access';
import type { ParentRecord, ParentSave } from '@/domain/people/parents';
import type { PersonOption } from '@/domain/people/students';
import { get } from '@/lib/api-client';
import { createResource } from '@/lib/resource';

/** Parents (k12 user/parent): list, edit, delete; no add (parents come from the student form and imports). */
export const parentResource = createResource<ParentRecord, ParentSave>({ base: pageApi('k12.user.parent') });

/** Students of the school matching a name or registration number (the form's child picker). */
export const searchChildren = (keyword: string) => get<PersonOption[]>(`${parentResource.base}/student-options`, { keyword });
