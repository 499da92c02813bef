import { ExportApprovalScreen, MyExportsScreen, SensitiveLogScreen } from '@/features/data-access/data-access-screens';
import { MyInfoFrame } from '../my-info/frame';
import { useScreenFamily } from '../screen-family';

/** system/sensitiveLog. */
export function SensitiveLogPage() {
  return <SensitiveLogScreen family={useScreenFamily()} />;
}
/** system/exportApproval. */
export function ExportApprovalPage() {
  return <ExportApprovalScreen family={useScreenFamily()} />;
}
/** /myInfo/exports: 我的导出, the caller's own export requests. */
export function MyExportsPage() {
  return (
    <MyInfoFrame>
      <MyExportsScreen />
    </MyInfoFrame>
  );
}
