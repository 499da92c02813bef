import { ReportScreen } from '@/features/physique-report/components/report-screen';

/** /scoreReport and /scoreReportK12 ?studentId=&schoolYearId= (issue 3 §5). */
export function ScoreReportPage() {
  return <ReportScreen />;
}
