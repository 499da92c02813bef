import { LessonResourceFormScreen, LessonResourceListScreen } from '@/features/content/components/lesson-screens';
import { useScreenFamily } from '../physique/family';

const lessonFamily = (f: 'admin' | 'k12' | 'gx') => (f === 'admin' ? 'admin' : 'k12');

/** lessonAssistant/lessonResourceList (k12) and lessonAssistant/resourceList (admin). */
export function LessonResourcePage() {
  return <LessonResourceListScreen family={lessonFamily(useScreenFamily())} />;
}
/** Their add and edit/:id. */
export function LessonResourceFormPage() {
  return <LessonResourceFormScreen family={lessonFamily(useScreenFamily())} />;
}
