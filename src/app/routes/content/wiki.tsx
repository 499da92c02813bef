import { WikiFormScreen, WikiListScreen } from '@/features/content/components/wiki-screens';
import { useScreenFamily } from '../physique/family';

const wikiFamily = (f: 'admin' | 'k12' | 'gx') => (f === 'gx' ? 'gx' : 'k12');

/** wikiManagement/schoolWiki. */
export function WikiPage() {
  return <WikiListScreen family={wikiFamily(useScreenFamily())} />;
}
/** wikiManagement/schoolWiki/add and edit/:id. */
export function WikiFormPage() {
  return <WikiFormScreen family={wikiFamily(useScreenFamily())} />;
}
