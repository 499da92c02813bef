import { EditUpReportScreen } from '@/features/scores/components/edit-up-report-screen';
import { ResultsScreen } from '@/features/scores/components/results-screen';
import { useScreenFamily } from './family';

/** physiqueManage/testResult (issue 3 §4). */
export function TestResultPage() {
  return <ResultsScreen family={useScreenFamily()} />;
}

/** physiqueManage/testResult/editUpReport?id= (issue 3 §4). */
export function EditUpReportPage() {
  return <EditUpReportScreen family={useScreenFamily()} />;
}
