import { LessonResourceFormScreen, LessonResourceListScreen } from '@/features/content/components/lesson-screens';
import { useScreenFamily } from '../screen-family';


/** lessonAssistant/lessonResourceList (k12) and lessonAssistant/resourceList (admin). */
export function LessonResourcePage() {
  return <LessonResourceListScreen family={useScreenFamily('lesson.lessonResource', 'lesson.resourceLibrary')} />;
}
/** Their add and edit/:id. */
export function LessonResourceFormPage() {
  return <LessonResourceFormScreen family={useScreenFamily('lesson.lessonResource.add', 'lesson.lessonResource.edit', 'lesson.resourceLibrary.add', 'lesson.resourceLibrary.edit')} />;
}
