import { TestRecordScreen } from '@/features/physique-results/components/test-record-screen';
import { useScreenFamily } from './family';

/** selfTest/testRecord (issue 3 §4). */
export function TestRecordPage() {
  return <TestRecordScreen family={useScreenFamily()} />;
}
