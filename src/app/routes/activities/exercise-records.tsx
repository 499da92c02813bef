import { ExerciseRecordScreen } from '@/features/activities/exercise-records/exercise-record-screen';
import { useScreenFamily } from '../screen-family';

/** sportData/exerciseRecord (docs/product-rules.md#exercise-records). */
export function ExerciseRecordPage() {
  return <ExerciseRecordScreen family={useScreenFamily()} />;
}
