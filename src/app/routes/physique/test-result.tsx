import { EditUpReportScreen } from '@/features/physique-results/components/edit-up-report-screen';
import { ResultsScreen } from '@/features/physique-results/components/results-screen';
import { useScreenFamily } from './family';

/** physiqueManage/testResult (issue 3 §4). */
export function TestResultPage() {
  return <ResultsScreen family={useScreenFamily()} />;
}

/** physiqueManage/testResult/editUpReport?id= (issue 3 §4). */
export function EditUpReportPage() {
  return <EditUpReportScreen family={useScreenFamily()} />;
}
