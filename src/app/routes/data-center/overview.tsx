import { SchoolDashboard } from '@/features/data-center/components/school-dashboard';
import { DistrictOverviewScreen } from '@/features/data-center/components/district-overview';
import { DistrictWarningsCard } from '@/features/warnings/components/warning-cards';
import { useAtomValue } from 'jotai';
import { filtersAtom } from '@/features/data-center/atoms';
import { LessonLoadCard } from '@/features/lesson-load/summary/load-card';
import { TodoPanel } from '@/features/messages/components/todo-panel';

/** admin/dataCenter/overview: the bureau's schools side by side. */
export function DistrictOverviewPage() {
  // The district's first page: what waits for the user above the overview (docs/product-rules.md#to-dos-and-messages).
  return (
    <div className="grid gap-4">
      <TodoPanel />
      <DistrictOverviewScreen extra={<DistrictWarningsCard />} />
    </div>
  );
}

/** admin/dataCenter/overview/school/:orgId: one school's data centre, read-only (its `orgId` travels in the query string). */
export function DistrictSchoolPage() {
  const { orgId } = useAtomValue(filtersAtom);
  return <SchoolDashboard extra={orgId ? <LessonLoadCard family="admin" orgId={orgId} /> : null} />;
}
