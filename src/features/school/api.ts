import { useQuery } from '@tanstack/react-query';
import { pageApi } from '@/domain/menus/access';
import type { SchoolFamily } from '@/domain/menus/access';
import type { CollegeDetail, CollegeSave, MajorDetail, MajorSave } from '@/domain/school/colleges';
import type { GradeDetail, GradeFormOptions, GradeSave } from '@/domain/school/grades';
import type { ClassSave } from '@/domain/school/classes';
import type { SchoolYearSave } from '@/domain/school/school-years';
import type { ClassDetail, ClassFormOptions, SchoolYearDetail } from '@/domain/school/types';
import { get } from '@/lib/api-client';
import { createResource, type Resource } from '@/lib/resource';


const cache = new Map<string, Resource<never, never>>();
function resource<Row, Save>(key: string): Resource<Row, Save> {
  let r = cache.get(key);
  if (!r) cache.set(key, (r = createResource<never, never>({ base: pageApi(key) })));
  return r as unknown as Resource<Row, Save>;
}

/** School years with semesters (org/acayear) of a family. */
export const schoolYears = (family: SchoolFamily) => resource<SchoolYearDetail, SchoolYearSave>(`${family}.org.acayear`);

/** Classes (org/class) of a family. */
export const classes = (family: SchoolFamily) => resource<ClassDetail, ClassSave>(`${family}.org.class`);

/** Grades (k12) or enrolment years (gx) of a family (org/grade). */
export const grades = (family: SchoolFamily) => resource<GradeDetail, GradeSave>(`${family}.org.grade`);

/** The school year a school cohort's grade is derived for (the grade form). */
export function useGradeOptions(family: SchoolFamily) {
  return useQuery({ queryKey: [...grades(family).key, 'options'], queryFn: () => get<GradeFormOptions>(`${grades(family).base}/options`) });
}

/** Grades, staff and majors the class form and filters choose from. */
export function useClassOptions(family: SchoolFamily) {
  return useQuery({ queryKey: [...classes(family).key, 'options'], queryFn: () => get<ClassFormOptions>(`${classes(family).base}/options`) });
}

/** Colleges (gx org/college) and majors (gx org/major) of a university. */
export const colleges = resource<CollegeDetail, CollegeSave>('gx.org.college');
export const majors = resource<MajorDetail, MajorSave>('gx.org.major');

/** The colleges the major form and filter choose from. */
export function useMajorOptions() {
  return useQuery({ queryKey: [...majors.key, 'options'], queryFn: () => get<{ colleges: { id: string; code: string; name: string }[] }>(`${majors.base}/options`) });
}
