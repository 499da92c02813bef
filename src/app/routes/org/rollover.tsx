import { RolloverScreen } from '@/features/school-structure/rollover/rollover-screen';
import { useScreenFamily } from '../physique/family';

/** org/acayear/rollover of a school or a university (docs/product-rules.md#year-rollover). */
export function RolloverPage() {
  return <RolloverScreen family={useScreenFamily() === 'gx' ? 'gx' : 'k12'} />;
}
