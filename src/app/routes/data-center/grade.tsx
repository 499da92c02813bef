import { useAtomValue } from 'jotai';
import { dataCenterFamilyAtom, filtersAtom } from '@/features/data-center/atoms';
import { GradeDashboard } from '@/features/data-center/components/grade-dashboard';
import { LessonLoadCard } from '@/features/lesson-load/summary/load-card';

/** /k12/dataCenter/grade: one grade, its classes side by side and the score distributions, with the grade's lesson load. */
export function DataCenterGradePage() {
  const family = useAtomValue(dataCenterFamilyAtom);
  const { orgId, gradeNo } = useAtomValue(filtersAtom);
  return <GradeDashboard extra={gradeNo ? <LessonLoadCard family={family} orgId={orgId} gradeNo={gradeNo} /> : null} />;
}
