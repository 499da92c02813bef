import { RetestScreen } from '@/features/retest/components/retest-screen';
import { useScreenFamily } from '../screen-family';

/** physiqueManage/retest (补测). */
export function RetestPage() {
  return <RetestScreen family={useScreenFamily('test.retest')} />;
}
