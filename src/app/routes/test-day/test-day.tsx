import { StationScreen } from '@/features/test-day/components/station-screen';
import { TestDayScreen } from '@/features/test-day/components/test-day-screens';
import { useScreenFamily } from '../screen-family';

/** physiqueManage/testDay. */
export function TestDayPage() {
  return <TestDayScreen family={useScreenFamily('test.testDay')} />;
}
/** physiqueManage/testDay/station/:stationId. */
export function StationPage() {
  return <StationScreen family={useScreenFamily('test.testDay.station')} />;
}
