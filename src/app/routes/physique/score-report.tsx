import { ReportScreen } from '@/features/physique-report/components/report-screen';

/** /scoreReport and /scoreReportK12 ?studentId=&schoolYearId= (docs/api/physique.md: student report). */
export function ScoreReportPage() {
  return <ReportScreen />;
}
