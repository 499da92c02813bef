import { getCatalogEntry } from '@/domain/menus/catalog';
import { LessonReportScreen } from '@/features/lesson-load/report/lesson-report-screen';
import { LoadListScreen } from '@/features/lesson-load/report/load-list-screen';
import { NotAvailable } from '../not-available';
import { useScreenFamily } from '../screen-family';

/**
 * class/load: a school's lessons with heart-rate data (K12, universities). The district's page of the same path (its
 * schools compared) is another screen, shown here once it exists.
 */
export function LoadPage() {
  const family = useScreenFamily('class.load');
  if (family === 'admin') return <NotAvailable entry={getCatalogEntry('admin.class.load')!} />;
  return <LoadListScreen family={family} />;
}

/** class/load/lesson/:lessonId. */
export function LoadLessonPage() {
  return <LessonReportScreen family={useScreenFamily('class.load.lesson')} />;
}
