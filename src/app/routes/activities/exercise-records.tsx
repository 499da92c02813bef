import { ExerciseRecordScreen } from '@/features/activities/exercise-records/exercise-record-screen';
import { useScreenFamily } from '../physique/family';

/** sportData/exerciseRecord (docs/product-rules.md#exercise-records). */
export function ExerciseRecordPage() {
  return <ExerciseRecordScreen family={useScreenFamily()} />;
}
