import { ConversionListScreen } from '@/features/conversion/components/conversion-screens';
import { useScreenFamily } from '../screen-family';

/** physiqueManage/conversion: a district's 中考体育 conversion tables. */
export function ConversionPage() {
  return <ConversionListScreen family={useScreenFamily('test.conversion')} />;
}
