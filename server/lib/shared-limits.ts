import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Lock, Locker, RequestRelease } from '@tus/server';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { driverOf, type Db } from '../db/client';
import { isPgPool, loadPg } from '../db/pg-driver';

/**
 * Limits and locks every server instance on one database shares (docs/deploy.md, "Several instances"): N instances
 * behind a proxy allow a rate limit once, not N times, and never write one upload at once.
 */

/** Expired counters are swept by roughly one call in this many. */
const SWEEP_ONE_IN = 200;

/**
 * A store for @fastify/rate-limit that counts in the database (table rate_limit_hits, migration 0039): one upsert per
 * request opens a window, counts in it, or starts a new one when it has ended. The database's clock decides windows, so
 * instances with skewed clocks still agree.
 */
export function databaseRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly route = '',
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      void this.count(`${this.route}|${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    private async count(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
      const { rows } = await db.execute<{ hits: number; ttl: number }>(sql`
        insert into rate_limit_hits (key, hits, resets_at)
        values (${key}, 1, now() + ${windowMs} * interval '1 millisecond')
        on conflict (key) do update set
          hits = case when rate_limit_hits.resets_at <= now() then 1 else rate_limit_hits.hits + 1 end,
          resets_at = case when rate_limit_hits.resets_at <= now() then excluded.resets_at else rate_limit_hits.resets_at end
        returning hits, greatest(0, ceil(extract(epoch from resets_at - now()) * 1000))::int as ttl`);
      // Not awaited: the request that happens to sweep answers as fast as the others.
      if (Math.random() * SWEEP_ONE_IN < 1) void db.execute(sql`delete from rate_limit_hits where resets_at < now()`).catch(() => {});
      const row = rows[0]!;
      return { current: Number(row.hits), ttl: Number(row.ttl) };
    }

    // Each route counts on its own, as with the plugin's in-memory store.
    child(routeOptions: object): FastifyRateLimitStore {
      // The plugin passes the route's merged options with the route itself under `routeInfo`.
      const route = (Reflect.get(routeOptions, 'routeInfo') ?? {}) as { method?: string | string[]; url?: string };
      const method = Array.isArray(route.method) ? route.method.join(',') : (route.method ?? '');
      return new DatabaseRateLimitStore(undefined, `${method} ${route.url ?? ''}`);
    }
  }
  return DatabaseRateLimitStore;
}

type TusModule = typeof import('@tus/server');
let tusModule: Promise<TusModule> | undefined;
/** @tus/server, loaded by the first resumable upload, not at start (docs/decisions/065-built-server.md). */
export const loadTus = (): Promise<TusModule> => (tusModule ??= import('@tus/server'));

/** Advisory-lock namespace of tus uploads (the first key of pg_try_advisory_lock(int, int)). */
const TUS_LOCK_CLASS = 7_461_303;
/** How long a request waits for an upload another request holds (as @tus/server's MemoryLocker). */
const ACQUIRE_TIMEOUT_MS = 30_000;
const RETRY_MS = 50;

/**
 * The tus upload locker. On PostgreSQL every lock is a session advisory lock on a connection of its own, so two
 * instances never write one upload at once, and an instance that dies releases its locks with its connections. A
 * holder on this instance is asked to let go at once (as tus's MemoryLocker does); one on another instance finishes
 * its request first. On PGlite the one process is the only writer: tus's in-memory locker suffices.
 */
export async function createUploadLocker(db: Db): Promise<{ locker: Locker; close(): Promise<void> }> {
  const { ERRORS, MemoryLocker } = await loadTus();
  const driver = driverOf(db);
  if (!isPgPool(driver)) return { locker: new MemoryLocker(), close: async () => {} };
  const options = driver.options as pg.PoolConfig;
  // Apart from the query pool: a long upload holds its lock's connection and must not starve the requests.
  const { Pool } = await loadPg();
  const pool = new Pool({ ...options, max: 50, idleTimeoutMillis: 10_000 });
  pool.on('error', () => {});
  const local = new Map<string, RequestRelease>();

  class AdvisoryLock implements Lock {
    private client?: pg.PoolClient;
    constructor(private readonly id: string) {}

    async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
      const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
      const client = await pool.connect();
      try {
        for (;;) {
          const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as ok', [TUS_LOCK_CLASS, this.id]);
          if (rows[0]?.ok) break;
          await local.get(this.id)?.();
          if (signal.aborted || Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      } catch (error) {
        client.release();
        throw error;
      }
      this.client = client;
      local.set(this.id, requestRelease);
    }

    async unlock(): Promise<void> {
      const client = this.client;
      if (!client) throw new Error('Releasing an unlocked lock!');
      this.client = undefined;
      local.delete(this.id);
      try {
        await client.query('select pg_advisory_unlock($1, hashtext($2))', [TUS_LOCK_CLASS, this.id]);
        client.release();
      } catch (error) {
        // A connection that cannot unlock is dropped, which releases the lock with it.
        client.release(error as Error);
      }
    }
  }

  return { locker: { newLock: (id) => new AdvisoryLock(id) }, close: () => pool.end() };
}
