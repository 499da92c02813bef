import { LessonListScreen } from '@/features/lessons/lesson-screens';
import { useScreenFamily } from '../screen-family';


/** class/practise. */
export function PractisePage() {
  return <LessonListScreen family={useScreenFamily('class.practise')} type="practise" />;
}
/** class/test. */
export function ClassTestPage() {
  return <LessonListScreen family={useScreenFamily('class.test')} type="test" />;
}
/** class/match. */
export function MatchPage() {
  return <LessonListScreen family={useScreenFamily('class.match')} type="match" />;
}
