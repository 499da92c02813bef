import { CollegeDashboard } from '@/features/data-center/components/college-dashboard';

/** /gx/dataCenter/college: every college of the university side by side, or one college (?collegeId=…). */
export function DataCenterCollegePage() {
  return <CollegeDashboard />;
}
