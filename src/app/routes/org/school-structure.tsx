import { CollegeFormScreen, CollegeListScreen, MajorFormScreen, MajorListScreen } from '@/features/school-structure/components/college-screens';
import { ClassFormScreen, ClassListScreen } from '@/features/school-structure/components/class-screens';
import { GradeFormScreen, GradeListScreen } from '@/features/school-structure/components/grade-screens';
import { SchoolYearFormScreen, SchoolYearListScreen } from '@/features/school-structure/components/school-year-screens';
import { useScreenFamily } from '../physique/family';

const schoolFamily = (f: 'admin' | 'k12' | 'gx') => (f === 'gx' ? 'gx' : 'k12');

/** org/acayear. */
export function SchoolYearPage() {
  return <SchoolYearListScreen family={schoolFamily(useScreenFamily())} />;
}
/** org/acayear/add and edit/:id. */
export function SchoolYearFormPage() {
  return <SchoolYearFormScreen family={schoolFamily(useScreenFamily())} />;
}
/** org/class. */
export function ClassPage() {
  return <ClassListScreen family={schoolFamily(useScreenFamily())} />;
}
/** org/class/add and edit/:classId. */
export function ClassFormPage() {
  return <ClassFormScreen family={schoolFamily(useScreenFamily())} />;
}
/** org/grade. */
export function GradePage() {
  return <GradeListScreen family={schoolFamily(useScreenFamily())} />;
}
/** org/grade/add and edit/:id. */
export function GradeFormPage() {
  return <GradeFormScreen family={schoolFamily(useScreenFamily())} />;
}
/** gx org/college, org/major and their addEdit screens. */
export const CollegePage = CollegeListScreen;
export const CollegeFormPage = CollegeFormScreen;
export const MajorPage = MajorListScreen;
export const MajorFormPage = MajorFormScreen;
