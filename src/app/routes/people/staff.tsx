import { StaffFormScreen, StaffListScreen } from '@/features/people/staff/components/staff-screens';
import { useScreenFamily } from '../physique/family';

const staffFamily = (f: 'admin' | 'k12' | 'gx') => (f === 'gx' ? 'gx' : 'k12');

/** user/teacher. */
export function StaffPage() {
  return <StaffListScreen family={staffFamily(useScreenFamily())} />;
}
/** user/teacher/add and edit/:id. */
export function StaffFormPage() {
  return <StaffFormScreen family={staffFamily(useScreenFamily())} />;
}
