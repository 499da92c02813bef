import { ParentReportScreen } from '@/features/parent-reports/components/parent-report-screen';

/**
 * /m/report (docs/product-rules.md#physique-year, "Reports parents read"): the parents' mobile page, signed in with
 * the app account, so outside the console's guard and shell like the wall.
 */
export function ParentReportPage() {
  return <ParentReportScreen />;
}
