import { OrgFormScreen, OrgListScreen } from '@/features/org-manage/components/org-screens';

/** orgManage/orgInfo. */
export function OrgListPage() {
  return <OrgListScreen />;
}
/** orgManage/orgInfo/add. */
export function OrgFormPage() {
  return <OrgFormScreen />;
}
