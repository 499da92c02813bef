import { useAtomValue } from 'jotai';
import { useParams } from 'react-router-dom';
import { dataCenterFamilyAtom, filtersAtom } from '@/features/data-center/atoms';
import { LessonLoadCard } from '@/features/lesson-load/summary/load-card';
import { ClassDashboard } from '@/features/data-center/components/class-dashboard';
import { ClassList } from '@/features/data-center/components/class-list';

/** /k12/dataCenter/class: every class with its figures. */
export function DataCenterClassListPage() {
  return <ClassList />;
}

/** /k12/dataCenter/class/detail/:id: one class and its students, with the class's lesson load. */
export function DataCenterClassDetailPage() {
  const { id = '' } = useParams();
  const family = useAtomValue(dataCenterFamilyAtom);
  const { orgId } = useAtomValue(filtersAtom);
  return <ClassDashboard key={id} classId={id} extra={<LessonLoadCard family={family} orgId={orgId} classId={id} />} />;
}
