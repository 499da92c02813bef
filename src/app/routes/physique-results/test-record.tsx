import { TestRecordScreen } from '@/features/physique-results/components/test-record-screen';
import { useScreenFamily } from '../screen-family';

/** selfTest/testRecord (docs/product-rules.md#physique-results: test records). */
export function TestRecordPage() {
  return <TestRecordScreen family={useScreenFamily()} />;
}
