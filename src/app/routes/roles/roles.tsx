import { RoleFormScreen, RoleListScreen } from '@/features/roles/components/role-screens';
import { RoleMembersScreen } from '@/features/roles/components/role-members-screen';
import { useScreenFamily } from '../screen-family';

/** …/role. */
export function RolePage() {
  return <RoleListScreen family={useScreenFamily()} />;
}
/** …/role/add and edit/:recordUid. */
export function RoleFormPage() {
  return <RoleFormScreen family={useScreenFamily()} />;
}
/** …/role/members/:id. */
export function RoleMembersPage() {
  return <RoleMembersScreen family={useScreenFamily()} />;
}
