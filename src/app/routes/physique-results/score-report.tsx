import { ReportScreen } from '@/features/physique-results/components/report-screen';

/** /scoreReport and /scoreReportK12 ?studentId=&schoolYearId= (docs/product-rules.md#physique-results: student report). */
export function ScoreReportPage() {
  return <ReportScreen />;
}
