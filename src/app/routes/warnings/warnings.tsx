import { WarningListScreen } from '@/features/warnings/components/warning-screens';
import { useScreenFamily } from '../screen-family';

/** physiqueManage/warning (k12, gx). */
export function WarningPage() {
  return <WarningListScreen family={useScreenFamily('test.warning')} />;
}
