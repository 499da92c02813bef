import { CollegeFormScreen, CollegeListScreen, MajorFormScreen, MajorListScreen } from '@/features/school/components/college-screens';
import { ClassFormScreen, ClassListScreen } from '@/features/school/components/class-screens';
import { GradeFormScreen, GradeListScreen } from '@/features/school/components/grade-screens';
import { SchoolYearFormScreen, SchoolYearListScreen } from '@/features/school/components/school-year-screens';
import { useScreenFamily } from '../screen-family';


/** org/acayear. */
export function SchoolYearPage() {
  return <SchoolYearListScreen family={useScreenFamily('org.acayear')} />;
}
/** org/acayear/add and edit/:id. */
export function SchoolYearFormPage() {
  return <SchoolYearFormScreen family={useScreenFamily('org.acayear.add', 'org.acayear.edit')} />;
}
/** org/class. */
export function ClassPage() {
  return <ClassListScreen family={useScreenFamily('org.class')} />;
}
/** org/class/add and edit/:classId. */
export function ClassFormPage() {
  return <ClassFormScreen family={useScreenFamily('org.class.add', 'org.class.edit')} />;
}
/** org/grade. */
export function GradePage() {
  return <GradeListScreen family={useScreenFamily('org.grade')} />;
}
/** org/grade/add and edit/:id. */
export function GradeFormPage() {
  return <GradeFormScreen family={useScreenFamily('org.grade.add', 'org.grade.edit')} />;
}
/** gx org/college, org/major and their addEdit screens. */
export const CollegePage = CollegeListScreen;
export const CollegeFormPage = CollegeFormScreen;
export const MajorPage = MajorListScreen;
export const MajorFormPage = MajorFormScreen;
