import { ConsentScreen } from '@/features/consent/consent-screen';
import { useScreenFamily } from '../screen-family';

/** system/consent (k12 and gx). */
export function ConsentPage() {
  return <ConsentScreen family={useScreenFamily('system.consent')} />;
}
