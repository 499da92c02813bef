import { ScoreSearchScreen } from '@/features/physique-results/components/score-search-screen';
import { useScreenFamily } from '../screen-family';

/** organizeTest/scoreSearch (docs/api/physique.md: score search). */
export function ScoreSearchPage() {
  return <ScoreSearchScreen family={useScreenFamily()} />;
}
