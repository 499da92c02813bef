import { useMutation } from '@tanstack/react-query';
import type { ScoreFilter } from '@/domain/physique-results/schemas';
import { download, saveFile } from '@/lib/api-client';
import { RESULT_LIST_PATH, scoresApi, type ResultList } from '../family';
import type { Family } from '@/domain/menus/access';

/**
 * GET …/scoreSearch/export (the national score-export layout) or …/testResult/export (the national upload file) for
 * the filter, and hand the .xlsx to the browser.
 */
export async function exportResults(family: Family, list: ResultList, filter: Partial<ScoreFilter>): Promise<void> {
  const file = await download(`${scoresApi(family)}${RESULT_LIST_PATH[list]}/export`, { ...filter });
  saveFile(file, 'export.xlsx');
}

export function useExportResultsMutation(family: Family, list: ResultList) {
  return useMutation({ mutationFn: (filter: Partial<ScoreFilter>) => exportResults(family, list, filter) });
}
