import { getCatalogEntry, type ButtonAction } from '@/domain/menus/catalog';

/** Route families with score screens (spec §2); the admin family reads its schools' scores but never writes them. */
export type ScoreFamily = 'admin' | 'k12' | 'gx';

/** API prefix of a family's physique routes (docs/api/physique.md). */
export function scoresApi(family: ScoreFamily): string {
  return `/api/busi/web/${family}`;
}

/** Which list a call is about: score search, the results screen (K12 only) or the test records. */
export type ResultList = 'scoreSearch' | 'testResult';
export const RESULT_LIST_PATH: Record<ResultList, string> = {
  scoreSearch: '/organizeTest/scoreSearch',
  testResult: '/physiqueManage/testResult',
};
export const RECORD_PATH = '/selfTest/testRecord';

/** Button permission of a catalogue page of the family, or '' when the family has no such page/button. */
export function buttonPermission(family: ScoreFamily, page: string, action: ButtonAction): string {
  return getCatalogEntry(`${family}.${page}`)?.buttons.find((b) => b.action === action)?.permission ?? '';
}

/** Catalogue path of a page of the family. */
export function pagePath(family: ScoreFamily, page: string): string {
  return getCatalogEntry(`${family}.${page}`)?.path ?? '';
}

/** Whether the family may change scores (invalid/restore, edits): not a management organisation. */
export function canWriteScores(family: ScoreFamily): boolean {
  return family !== 'admin';
}

/** View permission of a catalogue page of the family, or '' when the family has no such page. */
export function pageViewPermission(family: ScoreFamily, page: string): string {
  return getCatalogEntry(`${family}.${page}`)?.permission ?? '';
}
