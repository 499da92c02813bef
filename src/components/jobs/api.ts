import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { jobFinished, JOB_POLL_MS, type JobKind, type JobRow } from '@/domain/jobs';
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

/**
 * A screen that starts a job of `kind` follows it: `start(id)` with the id its POST answered; `onFinished` runs once when
 * it is done or failed (reload what it changed, save its file). Back on the screen later, a job of that kind still
 * running (from the tasks list) is followed again, so the user may leave and come back (docs/product-rules.md#jobs).
 */
export function useFollowJob(kind: JobKind, onFinished: (job: JobRow) => void) {
  const client = useQueryClient();
  const [started, setStarted] = useState<string | null>(null);
  const running = useJobs().data?.find((j) => j.kind === kind && !jobFinished(j.state));
  // A running job picked up is followed to its end: the list stops naming it as running once it is over.
  const [picked, setPicked] = useState<string | null>(null);
  if (!started && !picked && running) setPicked(running.id);
  const id = started ?? picked ?? running?.id ?? null;
  const job = useJob(id).data ?? null;
  const finished = job && jobFinished(job.state) ? job : null;
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (!finished || seen.current === finished.id) return;
    seen.current = finished.id;
    void client.invalidateQueries({ queryKey: jobsKey });
    onFinished(finished);
  }, [finished, client, onFinished]);
  const start = useCallback(
    (jobId: string) => {
      setStarted(jobId);
      void client.invalidateQueries({ queryKey: jobsKey });
    },
    [client],
  );
  return { job, working: !!job && !finished, start };
}
