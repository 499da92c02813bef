import { useAtomValue } from 'jotai';
import { PermissionGate } from '@/components/permission-gate/permission-gate';
import { dataCenterFamilyAtom } from '@/features/data-center/atoms';
import { ScreenLinksButton } from '@/features/data-center/components/screen-links';
import { SchoolDashboard } from '@/features/data-center/components/school-dashboard';
import { dataCenterPermissions } from '@/features/data-center/family';
import { WarningSummaryCard } from '@/features/warnings/components/warning-cards';
import { LessonLoadCard } from '@/features/lesson-load/summary/load-card';

/** /k12/dataCenter/school and /gx/dataCenter/school: the school dashboard, with the wall-link manager for roles allowed to publish one. */
export function DataCenterSchoolPage() {
  const family = useAtomValue(dataCenterFamilyAtom);
  return (
    <SchoolDashboard
      extra={
        <>
          {family === 'admin' ? null : <WarningSummaryCard family={family} />}
          <LessonLoadCard family={family} />
        </>
      }
      actions={
        <PermissionGate permission={dataCenterPermissions(family).screenLink}>
          <ScreenLinksButton />
        </PermissionGate>
      }
    />
  );
}
