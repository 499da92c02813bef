import { ScoreSearchScreen } from '@/features/physique-results/components/score-search-screen';
import { useScreenFamily } from '../screen-family';

/** organizeTest/scoreSearch (docs/product-rules.md#physique-results: score search). */
export function ScoreSearchPage() {
  return <ScoreSearchScreen family={useScreenFamily()} />;
}
