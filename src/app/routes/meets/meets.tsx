import { ArrangeScreen, CalendarScreen } from '@/features/meets/components/arrange-screens';
import { MeetFormScreen, MeetListScreen } from '@/features/meets/components/meet-screens';
import { BoardScreen, MeetPickerScreen, PointsScreen, ScoreEntryScreen, SignUpScreen } from '@/features/meets/components/single-screens';
import { useMeetFamily } from './meet-family';

/** sportsMeet. */
export function MeetPage() {
  return <MeetListScreen family={useMeetFamily()} />;
}
/** sportsMeet/add and detail/:meetId. */
export function MeetFormPage() {
  return <MeetFormScreen family={useMeetFamily()} />;
}
/** sportsMeet/detail/arrange/:meetId. */
export function MeetArrangePage() {
  return <ArrangeScreen family={useMeetFamily()} />;
}
/** sportsMeet/detail/calendar/:meetId. */
export function MeetCalendarPage() {
  return <CalendarScreen family={useMeetFamily()} />;
}
/** /single/sportsMeet/signUp. */
export function SignUpListPage() {
  return <MeetPickerScreen family={useMeetFamily()} pageKey="single.sportsMeet.signUp" action="detail" />;
}
/** /single/sportsMeet/signUp/:meetId. */
export function SignUpPage() {
  return <SignUpScreen family={useMeetFamily()} />;
}
/** /single/sportsMeet/score. */
export function ScoreListPage() {
  return <MeetPickerScreen family={useMeetFamily()} pageKey="single.sportsMeet.score" action="entry" />;
}
/** /single/sportsMeet/score/:meetId. */
export function ScoreEntryPage() {
  return <ScoreEntryScreen family={useMeetFamily()} />;
}
/** /single/sportsMeet/score/screen/:meetId. */
export function BoardPage() {
  return <BoardScreen family={useMeetFamily()} />;
}
/** /single/sportsMeet/points. */
export function PointsListPage() {
  return <MeetPickerScreen family={useMeetFamily()} pageKey="single.sportsMeet.points" action="detail" />;
}
/** /single/sportsMeet/points/:meetId. */
export function PointsPage() {
  return <PointsScreen family={useMeetFamily()} />;
}
