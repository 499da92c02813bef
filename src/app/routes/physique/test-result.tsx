import { EditUpReportScreen } from '@/features/physique-results/components/edit-up-report-screen';
import { ResultsScreen } from '@/features/physique-results/components/results-screen';
import { useScreenFamily } from '../screen-family';

/** physiqueManage/testResult (docs/api/physique.md: results screen). */
export function TestResultPage() {
  return <ResultsScreen family={useScreenFamily()} />;
}

/** physiqueManage/testResult/editUpReport?id= (docs/api/physique.md: results screen). */
export function EditUpReportPage() {
  return <EditUpReportScreen family={useScreenFamily()} />;
}
