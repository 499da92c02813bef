import { DistrictLoadScreen } from '@/features/lesson-load/summary/district-screen';
import { LessonReportScreen } from '@/features/lesson-load/report/lesson-report-screen';
import { LoadListScreen } from '@/features/lesson-load/report/load-list-screen';
import { useScreenFamily } from '../screen-family';

/** class/load: a school's lessons with heart-rate data (K12, universities); a district's schools compared (admin). */
export function LoadPage() {
  const family = useScreenFamily('class.load');
  return family === 'admin' ? <DistrictLoadScreen /> : <LoadListScreen family={family} />;
}

/** class/load/lesson/:lessonId. */
export function LoadLessonPage() {
  return <LessonReportScreen family={useScreenFamily('class.load.lesson')} />;
}
