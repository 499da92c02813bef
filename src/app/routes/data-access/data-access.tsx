import { ExportApprovalScreen, SensitiveLogScreen } from '@/features/data-access/data-access-screens';
import { useScreenFamily } from '../screen-family';

/** system/sensitiveLog. */
export function SensitiveLogPage() {
  return <SensitiveLogScreen family={useScreenFamily()} />;
}
/** system/exportApproval. */
export function ExportApprovalPage() {
  return <ExportApprovalScreen family={useScreenFamily()} />;
}
