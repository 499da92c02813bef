import { familyApi, type Family } from '@/domain/menus/access';
import { getCatalogEntry, type ButtonAction } from '@/domain/menus/catalog';

/** API prefix of a family's physique routes (docs/product-rules.md#physique-results). */
export const scoresApi = familyApi;

/** Which list a call is about: score search, the results screen (K12 only) or the test records. */
export type ResultList = 'scoreSearch' | 'testResult';
export const RESULT_LIST_PATH: Record<ResultList, string> = {
  scoreSearch: '/organizeTest/scoreSearch',
  testResult: '/physiqueManage/testResult',
};
export const RECORD_PATH = '/selfTest/testRecord';

/** Button permission of a catalogue page of the family, or '' when the family has no such page/button. */
export function buttonPermission(family: Family, page: string, action: ButtonAction): string {
  return getCatalogEntry(`${family}.${page}`)?.buttons.find((b) => b.action === action)?.permission ?? '';
}

/** Catalogue path of a page of the family. */
export function pagePath(family: Family, page: string): string {
  return getCatalogEntry(`${family}.${page}`)?.path ?? '';
}


/** View permission of a catalogue page of the family, or '' when the family has no such page. */
export function pageViewPermission(family: Family, page: string): string {
  return getCatalogEntry(`${family}.${page}`)?.permission ?? '';
}
