import { HomeworkDetailScreen } from '@/features/homework/homework-detail';
import { HomeworkFormScreen } from '@/features/homework/homework-form';
import { HomeworkListScreen } from '@/features/homework/homework-list';
import { useScreenFamily } from '../screen-family';


/** sportsHomework/homeworkManagement (k12, admin). */
export function HomeworkPage() {
  return <HomeworkListScreen family={useScreenFamily('homework.homeworkManagement')} />;
}
/** sportsHomework/homeworkManagement/add and edit/:id (k12). */
export function HomeworkFormPage() {
  return <HomeworkFormScreen />;
}
/** sportsHomework/homeworkManagement/detail/:id (k12, admin). */
export function HomeworkDetailPage() {
  return <HomeworkDetailScreen family={useScreenFamily('homework.homeworkManagement.detail')} />;
}
