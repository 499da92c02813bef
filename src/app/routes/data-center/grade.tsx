import { GradeDashboard } from '@/features/data-center/components/grade-dashboard';

/** /k12/dataCenter/grade: one grade, its classes side by side and the score distributions. */
export function DataCenterGradePage() {
  return <GradeDashboard />;
}
