import { RolloverScreen } from '@/features/school/rollover/rollover-screen';
import { useScreenFamily } from '../screen-family';

/** org/acayear/rollover of a school or a university (docs/product-rules.md#year-rollover). */
export function RolloverPage() {
  return <RolloverScreen family={useScreenFamily('org.acayear.rollover')} />;
}
