import { LessonListScreen } from '@/features/activities/lessons/lesson-screens';
import { useScreenFamily } from '../physique/family';

const lessonFamily = (f: 'admin' | 'k12' | 'gx') => (f === 'admin' ? 'admin' : 'k12');

/** class/practise. */
export function PractisePage() {
  return <LessonListScreen family={lessonFamily(useScreenFamily())} type="practise" />;
}
/** class/test. */
export function ClassTestPage() {
  return <LessonListScreen family={lessonFamily(useScreenFamily())} type="test" />;
}
/** class/match. */
export function MatchPage() {
  return <LessonListScreen family={lessonFamily(useScreenFamily())} type="match" />;
}
