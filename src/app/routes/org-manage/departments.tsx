import { DepartmentFormScreen, DepartmentListScreen, DepartmentMembersScreen } from '@/features/org-manage/components/department-screens';

/** departmentManage. */
export function DepartmentListPage() {
  return <DepartmentListScreen />;
}
/** departmentManage/add and edit/:id. */
export function DepartmentFormPage() {
  return <DepartmentFormScreen />;
}
/** departmentManage/member/:id. */
export function DepartmentMembersPage() {
  return <DepartmentMembersScreen />;
}
