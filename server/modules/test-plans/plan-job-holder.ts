import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db, DbOrTx } from '../../db/client';
import { isPgPool, loadPg } from '../../db/pg-driver';

/**
 * Who holds an import or sync (docs/decisions/010-plan-jobs-and-bin.md). A `plan_jobs` row marked
 * running is live only while the server process that started it is alive and still runs it:
 * - rows of this process: live while the job is in this process's set of running jobs;
 * - rows of another process: live while that process holds its advisory lock. On PostgreSQL it
 *   holds it on a connection of its own, which the server drops the moment the process or the
 *   connection dies. On PGlite only one process opens a directory, so nobody else can hold it and
 *   a row from another process is a leftover from one that crashed.
 * No clock is involved: a crashed import frees the plan at once, a long one keeps it while it runs.
 */

/** First key of the two-key advisory locks of job holders (the second comes from the holder id). */
const HOLDER_LOCK_SPACE = 74_613;

/** This server process. */
export const PROCESS_HOLDER_ID = randomUUID();

/** Jobs this process runs now. */
const runningHere = new Set<string>();

/** The advisory-lock keys of a holder id (its first 32 bits as a signed int4 under HOLDER_LOCK_SPACE). */
export function holderLockKeys(holderId: string): [number, number] {
  return [HOLDER_LOCK_SPACE, Number.parseInt(holderId.slice(0, 8), 16) | 0];
}

/** PostgreSQL: per pool (advisory locks belong to one database), the connection holding this process's lock. */
const lockClients = new WeakMap<pg.Pool, Promise<pg.Client>>();

/** The pool behind a node-postgres drizzle database, or null on PGlite. */
function poolOf(db: Db): pg.Pool | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  return isPgPool(client) ? client : null;
}

/**
 * PostgreSQL: makes sure this process holds its advisory lock, on a connection of its own, before it
 * starts a job (reconnecting if that connection was lost). No-op on PGlite.
 */
export async function ensureHolderLock(db: Db): Promise<void> {
  const pool = poolOf(db);
  if (!pool) return;
  let pending = lockClients.get(pool);
  if (!pending) {
    pending = (async () => {
      const { Client } = await loadPg();
      const client = new Client(pool.options);
      // A lost lock connection must not crash the process; the next job reconnects.
      const forget = () => {
        if (lockClients.get(pool) === pending) lockClients.delete(pool);
      };
      client.on('error', forget);
      client.on('end', forget);
      await client.connect();
      await client.query('select pg_advisory_lock($1, $2)', holderLockKeys(PROCESS_HOLDER_ID));
      return client;
    })();
    lockClients.set(pool, pending);
    pending.catch(() => lockClients.delete(pool));
  }
  await pending;
}

/** Closes this process's lock connection for `db` (server shutdown); jobs still running here lose their lock. */
export async function releaseHolderLock(db: Db): Promise<void> {
  const pool = poolOf(db);
  const pending = pool ? lockClients.get(pool) : undefined;
  if (!pool || !pending) return;
  lockClients.delete(pool);
  await pending.then((client) => client.end()).catch(() => {});
}

/** Records that this process runs the job / no longer does. */
export function holdJob(jobId: string): void {
  runningHere.add(jobId);
}
export function dropJob(jobId: string): void {
  runningHere.delete(jobId);
}

/**
 * Whether a running job row is still held, asked from `db` (a transaction or the database). For
 * another process's row it tries that holder's advisory lock for the current transaction only:
 * getting it means nobody holds it, so the holder is gone (the lock goes with the transaction).
 */
export async function jobHeld(db: DbOrTx, job: { id: string; holderId: string | null }): Promise<boolean> {
  if (job.holderId === null) return false;
  if (job.holderId === PROCESS_HOLDER_ID) return runningHere.has(job.id);
  const [space, key] = holderLockKeys(job.holderId);
  const res = await db.execute<{ free: boolean }>(sql`select pg_try_advisory_xact_lock(${space}::int, ${key}::int) as free`);
  return !res.rows[0]?.free;
}
