import { CurrentOrgFormScreen, CurrentOrgScreen } from '@/features/org-manage/components/current-org-screens';
import { useScreenFamily } from '../screen-family';

/** currentOrg. */
export function CurrentOrgPage() {
  return <CurrentOrgScreen family={useScreenFamily()} />;
}
/** currentOrg/edit/:orgId. */
export function CurrentOrgFormPage() {
  return <CurrentOrgFormScreen family={useScreenFamily()} />;
}
