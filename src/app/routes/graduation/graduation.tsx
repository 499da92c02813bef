import { GraduationListScreen } from '@/features/graduation/components/graduation-screen';
import { StudentHistoryScreen } from '@/features/graduation/components/history-screen';
import { useScreenFamily } from '../screen-family';

/** physiqueManage/graduation (docs/product-rules.md#physique-year: Graduation). */
export function GraduationPage() {
  return <GraduationListScreen family={useScreenFamily('test.graduation')} />;
}
export function GraduationHistoryPage() {
  return <StudentHistoryScreen family={useScreenFamily('test.graduation.history')} />;
}
