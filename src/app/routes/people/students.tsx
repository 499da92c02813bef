import { StudentFormScreen, StudentListScreen } from '@/features/people/students/student-screens';
import { useScreenFamily } from '../physique/family';

const studentFamily = (f: 'admin' | 'k12' | 'gx') => (f === 'gx' ? 'gx' : 'k12');

/** user/student. */
export function StudentPage() {
  return <StudentListScreen family={studentFamily(useScreenFamily())} />;
}
/** user/student/add and edit/:id. */
export function StudentFormPage() {
  return <StudentFormScreen family={studentFamily(useScreenFamily())} />;
}
