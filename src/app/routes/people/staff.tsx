import { StaffFormScreen, StaffListScreen } from '@/features/people/staff/components/staff-screens';
import { useScreenFamily } from '../screen-family';


/** user/teacher. */
export function StaffPage() {
  return <StaffListScreen family={useScreenFamily('user.teacher')} />;
}
/** user/teacher/add and edit/:id. */
export function StaffFormPage() {
  return <StaffFormScreen family={useScreenFamily('user.teacher.add', 'user.teacher.edit')} />;
}
