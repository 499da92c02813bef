import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { jobs } from '../db/schema/jobs';
import { messages } from '../db/schema/messages';

/**
 * Leaves the message of a job that is over for the user who started it (docs/product-rules.md#to-dos-and-messages):
 * one per job (the unique job id makes a second call a no-op), its failures from the result's `failure` count, or 1
 * for a job that failed as a whole. The text is read from the job when the message is shown, in the reader's language.
 */
export async function leaveJobMessage(db: DbOrTx, jobId: string): Promise<void> {
  await db.execute(jobMessageStatement(jobId));
}

/** leaveJobMessage's statement, for a job finished on a raw connection inside its own transaction (jobs.ts finishIn). */
export function jobMessageStatement(jobId: string): SQL {
  return sql`
    insert into ${messages} (org_id, user_id, kind, job_id, failures, created_at)
    select j.org_id, j.user_id, 'job', j.id,
      case when j.state = 'failed' then 1 else coalesce((j.result -> 'counts' ->> 'failure')::int, 0) end,
      coalesce(j.finished_at, now())
    from ${jobs} j where j.id = ${jobId}::uuid and j.state in ('done', 'failed')
    on conflict (job_id) do nothing`;
}
