import { LiveMonitorScreen } from '@/features/lesson-load/monitor/live-screen';
import { MonitorListScreen } from '@/features/lesson-load/monitor/monitor-list';
import { useScreenFamily } from '../screen-family';

/** class/monitor. */
export function MonitorPage() {
  return <MonitorListScreen family={useScreenFamily('class.monitor')} />;
}
/** class/monitor/live/:lessonId. */
export function LiveMonitorPage() {
  return <LiveMonitorScreen family={useScreenFamily('class.monitor.live')} />;
}
