import { ContestDataScreen } from '@/features/contests/contest-data';
import { ContestDetailScreen, ContestFormScreen, ContestListScreen } from '@/features/contests/contest-screens';
import { useScreenFamily } from '../screen-family';

/** onlineManagement/competitionRank and competition (docs/product-rules.md#contests). */
export function ContestListPage() {
  return <ContestListScreen family={useScreenFamily()} />;
}
export function RankFormPage() {
  return <ContestFormScreen family={useScreenFamily()} type="rank" />;
}
export function ChallengeFormPage() {
  return <ContestFormScreen family={useScreenFamily()} type="challenge" />;
}
export function ContestDetailPage() {
  return <ContestDetailScreen family={useScreenFamily()} />;
}
export function ContestDataPage() {
  return <ContestDataScreen family={useScreenFamily()} />;
}
