import { useMutation } from '@tanstack/react-query';
import type { TestRecordFilter } from '@/domain/physique-results/schemas';
import { download, saveFile } from '@/lib/api-client';
import { RECORD_PATH, scoresApi } from '../family';
import type { Family } from '@/domain/menus/access';

/** GET …/selfTest/testRecord/export for the filter and hand the .xlsx to the browser. */
export async function exportRecords(family: Family, filter: Partial<TestRecordFilter>): Promise<void> {
  const file = await download(`${scoresApi(family)}${RECORD_PATH}/export`, { ...filter });
  saveFile(file, 'records.xlsx');
}

export function useExportRecordsMutation(family: Family) {
  return useMutation({ mutationFn: (filter: Partial<TestRecordFilter>) => exportRecords(family, filter) });
}
