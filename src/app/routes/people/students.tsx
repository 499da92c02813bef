import { StudentFormScreen, StudentListScreen } from '@/features/people/students/student-screens';
import { useScreenFamily } from '../screen-family';


/** user/student. */
export function StudentPage() {
  return <StudentListScreen family={useScreenFamily('user.student')} />;
}
/** user/student/add and edit/:id. */
export function StudentFormPage() {
  return <StudentFormScreen family={useScreenFamily('user.student.add', 'user.student.edit')} />;
}
