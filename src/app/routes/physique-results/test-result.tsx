import { EditUpReportScreen } from '@/features/physique-results/components/edit-up-report-screen';
import { ResultsScreen } from '@/features/physique-results/components/results-screen';
import { useScreenFamily } from '../screen-family';

/** physiqueManage/testResult (docs/product-rules.md#physique-results: results screen). */
export function TestResultPage() {
  return <ResultsScreen family={useScreenFamily()} />;
}

/** physiqueManage/testResult/editUpReport?id= (docs/product-rules.md#physique-results: results screen). */
export function EditUpReportPage() {
  return <EditUpReportScreen family={useScreenFamily()} />;
}
