import { useAtomValue } from 'jotai';
import { PermissionGate } from '@/components/permission-gate/permission-gate';
import { dataCenterFamilyAtom } from '@/features/data-center/atoms';
import { ScreenLinksButton } from '@/features/data-center/components/screen-links';
import { SchoolDashboard } from '@/features/data-center/components/school-dashboard';
import { dataCenterPermissions } from '@/features/data-center/family';
import { WarningSummaryCard } from '@/features/warnings/components/warning-cards';
import { LessonLoadCard } from '@/features/lesson-load/summary/load-card';
import { TodoPanel } from '@/features/messages/components/todo-panel';

/** /k12/dataCenter/school and /gx/dataCenter/school: the school dashboard, with the wall-link manager for roles allowed to publish one. */
export function DataCenterSchoolPage() {
  const family = useAtomValue(dataCenterFamilyAtom);
  // The user's first page: what waits for them above the dashboard (docs/product-rules.md#to-dos-and-messages).
  return (
    <div className="grid gap-4">
    <TodoPanel />
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
    </div>
  );
}
