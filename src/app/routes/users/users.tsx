import { UserFormScreen, UserListScreen } from '@/features/users/components/user-screens';

/** user: the management organisation's accounts. */
export function UserListPage() {
  return <UserListScreen />;
}
/** user/add and user/edit/:id. */
export function UserFormPage() {
  return <UserFormScreen />;
}
