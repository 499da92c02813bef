import { DataRequestScreen, RetentionScreen } from '@/features/retention/retention-screens';
import { useScreenFamily } from '../screen-family';

/** system/retention (every family). */
export function RetentionPage() {
  return <RetentionScreen family={useScreenFamily('system.retention')} />;
}

/** system/dataRequest (k12 and gx). */
export function DataRequestPage() {
  return <DataRequestScreen family={useScreenFamily('system.dataRequest')} />;
}
