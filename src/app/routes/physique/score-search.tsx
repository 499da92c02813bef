import { ScoreSearchScreen } from '@/features/physique-results/components/score-search-screen';
import { useScreenFamily } from './family';

/** organizeTest/scoreSearch (issue 3 §4). */
export function ScoreSearchPage() {
  return <ScoreSearchScreen family={useScreenFamily()} />;
}
