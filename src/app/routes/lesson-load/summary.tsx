import { DistrictLoadScreen } from '@/features/lesson-load/summary/district-screen';
import { LoadSummaryScreen } from '@/features/lesson-load/summary/summary-screen';
import { useScreenFamily } from '../screen-family';

/** /k12/class/load/summary, /gx/class/load/summary: a term's lesson load of the school. */
export function LoadSummaryPage() {
  return <LoadSummaryScreen family={useScreenFamily('class.load.summary')} />;
}

/**
 * /admin/class/load: the district's schools compared over a term. The schools' own class/load (their lessons list)
 * is another screen of the same id: until it is registered here, a school lands on its summary.
 */
export function ClassLoadPage() {
  const family = useScreenFamily('class.load');
  return family === 'admin' ? <DistrictLoadScreen /> : <LoadSummaryScreen family={family} />;
}
