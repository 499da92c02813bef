import { DictionaryScreen } from '@/features/dictionaries/dictionary-screen';
import { useScreenFamily } from '../screen-family';

/** system/dictionary. */
export function DictionaryPage() {
  return <DictionaryScreen family={useScreenFamily('system.dictionary')} />;
}
