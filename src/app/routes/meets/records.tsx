import { RecordFormScreen, RecordListScreen } from '@/features/meets/components/record-screens';
import { useMeetFamily } from './meet-family';

/** /single/sportsMeet/record. */
export function RecordListPage() {
  return <RecordListScreen family={useMeetFamily()} />;
}
/** /single/sportsMeet/record/add and edit/:id. */
export function RecordFormPage() {
  return <RecordFormScreen family={useMeetFamily()} />;
}
