import { z } from 'zod';
import './fields';

/**
 * Long work run as a job (docs/decisions/026-job-queue.md, docs/product-rules.md#jobs): certificate issuing, the year
 * rollover, the physique score export, the physique score import and the commit of a people (student, staff, account) import. The user who started one (and an administrator of the same organisation) follows its progress
 * in the tasks panel and on the screen that started it, and may leave the page and come back.
 */
export const JOB_KINDS = ['certificates', 'rollover', 'physiqueExport', 'physiqueImport', 'peopleImport'] as const;

/** GET /jobs: the caller's recent jobs, of one kind when asked (a screen picking up its running job). */
export const jobListQuery = z.object({ kind: z.enum(JOB_KINDS).optional() });
export type JobKind = (typeof JOB_KINDS)[number];

export const JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** A job is over (nothing more will change) once done or failed. */
export const jobFinished = (state: JobState): boolean => state === 'done' || state === 'failed';

/** What a finished job left: a file to download, counts, a message. */
export interface JobResult {
  fileId?: string;
  fileName?: string;
  counts?: Record<string, number>;
  /** Translated by the server in the reader's language. */
  message?: string;
}

/** A job as the tasks panel and the starting screen read it (texts already in the reader's language). */
export interface JobRow {
  id: string;
  kind: JobKind;
  state: JobState;
  done: number;
  total: number;
  /** The step in progress, translated. */
  stage: string | null;
  result: JobResult | null;
  /** Why it failed, translated. */
  error: string | null;
  /** The HTTP status the failure would have answered (400 a refused file, 409 a busy plan), when it failed. */
  errorStatus?: number;
  startedBy: string;
  createdAt: string;
  finishedAt: string | null;
}

/** `JobRow` for the console API document (/api/docs): describes the answer of GET /jobs and /jobs/:id. */
export const jobRowSchema = z.object({
  id: z.string(),
  kind: z.enum(JOB_KINDS),
  state: z.enum(JOB_STATES),
  done: z.number(),
  total: z.number(),
  stage: z.string().nullable(),
  result: z.object({ fileId: z.string().optional(), fileName: z.string().optional(), counts: z.record(z.string(), z.number()).optional(), message: z.string().optional() }).nullable(),
  error: z.string().nullable(),
  errorStatus: z.number().optional(),
  startedBy: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
}) satisfies z.ZodType<JobRow>;

/** How often a screen asks about a job it waits for (ms). */
export const JOB_POLL_MS = 1000;
/** How many recent jobs the tasks panel lists. */
export const JOB_LIST_MAX = 20;

/** 0–100, for a progress bar; a job that does not know its total yet shows 0 until done. */
export function jobPercent(job: Pick<JobRow, 'state' | 'done' | 'total'>): number {
  if (job.state === 'done') return 100;
  if (job.total <= 0) return 0;
  return Math.min(100, Math.round((job.done / job.total) * 100));
}

/** What a route that starts a job answers: the job to follow (GET /jobs/:id). */
export const jobStartedSchema = z.object({ id: z.string().describe('The job id: follow it with GET /api/busi/web/jobs/{id}') });
