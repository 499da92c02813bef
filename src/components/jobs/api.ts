import { useQuery } from '@tanstack/react-query';
import { jobFinished, JOB_POLL_MS, type JobRow } from '@/domain/jobs';
import { download, get, saveFile } from '@/lib/api-client';

/** The user's jobs (docs/product-rules.md#jobs): /api/busi/web/jobs. */
export const JOBS_BASE = '/api/busi/web/jobs';
export const jobsKey = ['jobs'] as const;

/** Recent jobs for the tasks panel; asked again every second while one of them still runs. */
export function useJobs(enabled = true) {
  return useQuery({
    queryKey: [...jobsKey, 'list'],
    queryFn: () => get<JobRow[]>(JOBS_BASE),
    enabled,
    refetchInterval: (query) => (query.state.data?.some((j) => !jobFinished(j.state)) ? JOB_POLL_MS : false),
  });
}

/** One job, polled until it is done or failed. */
export function useJob(id: string | null) {
  return useQuery({
    queryKey: [...jobsKey, 'one', id],
    queryFn: () => get<JobRow>(`${JOBS_BASE}/${id}`),
    enabled: !!id,
    refetchInterval: (query) => (query.state.data && jobFinished(query.state.data.state) ? false : JOB_POLL_MS),
  });
}

/** Saves a finished job's file. */
export async function downloadJobFile(job: Pick<JobRow, 'id' | 'result'>): Promise<void> {
  saveFile(await download(`${JOBS_BASE}/${job.id}/download`), job.result?.fileName ?? 'download');
}
