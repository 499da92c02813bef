import { ExemptionListScreen } from '@/features/exemptions/exemption-screens';
import { useScreenFamily } from '../screen-family';

/** physiqueManage/exemption (k12 and gx). */
export function ExemptionPage() {
  return <ExemptionListScreen family={useScreenFamily('test.exemption')} />;
}
