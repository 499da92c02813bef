import { LoadSummaryScreen } from '@/features/lesson-load/summary/summary-screen';
import { useScreenFamily } from '../screen-family';

/** /k12/class/load/summary, /gx/class/load/summary: a term's lesson load of the school. */
export function LoadSummaryPage() {
  return <LoadSummaryScreen family={useScreenFamily('class.load.summary')} />;
}
