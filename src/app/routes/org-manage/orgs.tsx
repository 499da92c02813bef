import { OrgDetailScreen, OrgEditScreen, OrgFormScreen, OrgListScreen } from '@/features/org-manage/components/org-screens';

/** orgManage/orgInfo. */
export function OrgListPage() {
  return <OrgListScreen />;
}
/** orgManage/orgInfo/add. */
export function OrgFormPage() {
  return <OrgFormScreen />;
}
/** orgManage/orgInfo/edit/:orgId. */
export function OrgEditPage() {
  return <OrgEditScreen />;
}
/** orgManage/orgInfo/detail/:orgId. */
export function OrgDetailPage() {
  return <OrgDetailScreen />;
}
