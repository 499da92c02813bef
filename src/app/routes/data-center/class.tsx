import { useParams } from 'react-router-dom';
import { ClassDashboard } from '@/features/data-center/components/class-dashboard';
import { ClassList } from '@/features/data-center/components/class-list';

/** /k12/dataCenter/class: every class with its figures. */
export function DataCenterClassListPage() {
  return <ClassList />;
}

/** /k12/dataCenter/class/detail/:id: one class and its students. */
export function DataCenterClassDetailPage() {
  const { id = '' } = useParams();
  return <ClassDashboard key={id} classId={id} />;
}
