import { WikiFormScreen, WikiListScreen } from '@/features/content/components/wiki-screens';
import { useScreenFamily } from '../screen-family';


/** wikiManagement/schoolWiki. */
export function WikiPage() {
  return <WikiListScreen family={useScreenFamily('wiki.schoolWiki')} />;
}
/** wikiManagement/schoolWiki/add and edit/:id. */
export function WikiFormPage() {
  return <WikiFormScreen family={useScreenFamily('wiki.schoolWiki.add', 'wiki.schoolWiki.edit')} />;
}
