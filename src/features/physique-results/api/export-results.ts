import { useCallback } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { JobRow } from '@/domain/jobs';
import type { ScoreFilter } from '@/domain/physique-results/schemas';
import { downloadJobFile, useFollowJob } from '@/components/jobs/api';
import { download, post, saveFile } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { RESULT_LIST_PATH, scoresApi } from '../family';
import type { Family } from '@/domain/menus/access';

/** GET …/testResult/export (the national upload file) for the filter, and hand the .xlsx to the browser. */
export async function exportResults(family: Family, list: 'testResult', filter: Partial<ScoreFilter>): Promise<void> {
  const file = await download(`${scoresApi(family)}${RESULT_LIST_PATH[list]}/export`, { ...filter });
  saveFile(file, 'export.xlsx');
}

export function useExportResultsMutation(family: Family, list: 'testResult') {
  return useMutation({ mutationFn: (filter: Partial<ScoreFilter>) => exportResults(family, list, filter) });
}

/**
 * The score export (…/scoreSearch/export, the national score-export layout) is a job (docs/product-rules.md#jobs): the
 * POST answers a refusal at once or the job's id; the screen shows its bar and saves the workbook when it is done.
 */
export function useScoreExportJob(family: Family) {
  const onFinished = useCallback((job: JobRow) => {
    if (job.state === 'done') downloadJobFile(job).catch((e: unknown) => toast.error(e instanceof Error ? e.message : String(e)));
    else toast.warning(job.error ?? '');
  }, []);
  const follow = useFollowJob('physiqueExport', onFinished);
  const start = useMutation({
    mutationFn: (filter: Partial<ScoreFilter>) => post<{ id: string }>(`${scoresApi(family)}${RESULT_LIST_PATH.scoreSearch}/export`, filter),
    onSuccess: ({ id }) => follow.start(id),
  });
  return { start, job: follow.job, working: follow.working };
}
