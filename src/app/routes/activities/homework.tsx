import { HomeworkDetailScreen } from '@/features/activities/homework/homework-detail';
import { HomeworkFormScreen } from '@/features/activities/homework/homework-form';
import { HomeworkListScreen } from '@/features/activities/homework/homework-list';
import { useScreenFamily } from '../physique/family';

const homeworkFamily = (f: string) => (f === 'admin' ? 'admin' : 'k12');

/** sportsHomework/homeworkManagement (k12, admin). */
export function HomeworkPage() {
  return <HomeworkListScreen family={homeworkFamily(useScreenFamily())} />;
}
/** sportsHomework/homeworkManagement/add and edit/:id (k12). */
export function HomeworkFormPage() {
  return <HomeworkFormScreen />;
}
/** sportsHomework/homeworkManagement/detail/:id (k12, admin). */
export function HomeworkDetailPage() {
  return <HomeworkDetailScreen family={homeworkFamily(useScreenFamily())} />;
}
