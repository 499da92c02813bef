import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { isAppError } from '../lib/app-error';
import type { Db } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Runs a read on the replica (DATABASE_REPLICA_URL) when it can answer as fresh as the caller needs, else on the
     * primary (docs/deploy.md, "Read replica"); without a replica, on the primary. Dashboards, lists, exports and the wall
     * read through it. A replica that fails mid-read is retried on the primary: the user never sees its error.
     * Without a request (a job, server/lib/jobs.ts) the read must be as fresh as the primary at that moment, which
     * covers the starter's writes before the job started.
     */
    readWith<T>(request: FastifyRequest | null, read: (db: Db) => Promise<T>): Promise<T>;
  }
}

export interface ReplicaPluginOptions {
  replica?: Db;
  /** How long a read waits for the replica to replay the caller's own last write before going to the primary. */
  waitMs?: number;
}

/** The cookie that carries the primary's WAL position after a user's write, to whichever instance serves them next. */
export const WRITE_LSN_COOKIE = 'tiyu_wlsn';
/** A user's own writes matter for a few minutes; past that the replica has long caught up. */
const COOKIE_MAX_AGE_S = 300;
/** How often (at most) the replica's lag is measured, and how far behind (bytes of WAL) it may be for lists that do not cache. */
const HEALTH_EVERY_MS = 1_000;
const MAX_LAG_BYTES = 16 * 1024 * 1024;
/** A replica that failed is left alone this long before it is tried again. */
const DEAD_FOR_MS = 5_000;
const POLL_MS = 20;

const LSN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;
const lsnBytes = (lsn: string): bigint => {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
};

function cookieLsn(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === WRITE_LSN_COOKIE && value && LSN.test(value)) return value;
  }
  return undefined;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Errors that mean the replica (not the statement) failed: connection classes, shutdown, recovery conflicts. */
const replicaGone = (error: unknown): boolean => {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  return /^(08|57P|40001|ECONN|ETIMEDOUT|EHOSTUNREACH)/.test(code) || /terminated|timeout|not queryable|ECONNREFUSED/i.test(String((error as Error)?.message));
};

export const replicaPlugin = fp<ReplicaPluginOptions>(
  async (app, opts) => {
    const replica = opts.replica;
    if (!replica) {
      app.decorate('readWith', <T>(_request: FastifyRequest | null, read: (db: Db) => Promise<T>) => read(app.db));
      return;
    }
    const waitMs = opts.waitMs ?? 500;
    let deadUntil = 0;
    let health: { at: number; ok: boolean } = { at: 0, ok: false };
    let state: 'up' | 'down' = 'up';
    // One log line per change of state, not one per request.
    const mark = (next: 'up' | 'down', why: string, err?: unknown) => {
      if (next === state) return;
      state = next;
      if (next === 'down') app.log.warn({ err }, `read replica unusable (${why}); reading from the primary`);
      else app.log.info('read replica back; reading from it again');
    };

    const primaryLsn = async () => (await app.db.execute<{ lsn: string }>(sql`select pg_current_wal_lsn()::text as lsn`)).rows[0]!.lsn;
    const replayed = async () => (await replica.execute<{ lsn: string | null }>(sql`select pg_last_wal_replay_lsn()::text as lsn`)).rows[0]?.lsn ?? null;

    /** Whether the replica has replayed `floor` (waiting up to waitMs for it). */
    const caughtUp = async (floor: string): Promise<boolean> => {
      const deadline = Date.now() + waitMs;
      for (;;) {
        const at = await replayed();
        if (at && lsnBytes(at) >= lsnBytes(floor)) return true;
        if (Date.now() >= deadline) return false;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    };

    const healthy = async (): Promise<boolean> => {
      if (Date.now() - health.at < HEALTH_EVERY_MS) return health.ok;
      const [p, r] = await Promise.all([primaryLsn(), replayed()]);
      const ok = r !== null && lsnBytes(p) - lsnBytes(r) <= BigInt(MAX_LAG_BYTES);
      health = { at: Date.now(), ok };
      if (!ok) mark('down', r === null ? 'not replaying' : 'lagging');
      return ok;
    };

    /** The replica if it can serve this request, else null (→ primary). */
    const choose = async (request: FastifyRequest | null): Promise<Db | null> => {
      if (Date.now() < deadUntil) return null;
      try {
        if (!(await healthy())) return null;
        // The caller's own last write; an answer the read cache keeps (and a job's read, without a request) must be as
        // fresh as the primary now, since the change feed that retires it listens to the primary.
        const floor = !request || request.readCacheMiss ? await primaryLsn() : cookieLsn(request);
        if (floor && !(await caughtUp(floor))) {
          mark('down', 'behind the caller’s last write');
          return null;
        }
        mark('up', '');
        return replica;
      } catch (err) {
        deadUntil = Date.now() + DEAD_FOR_MS;
        health = { at: 0, ok: false };
        mark('down', 'unreachable', err);
        return null;
      }
    };

    app.decorate('readWith', async <T>(request: FastifyRequest | null, read: (db: Db) => Promise<T>): Promise<T> => {
      const db = await choose(request);
      if (!db) return read(app.db);
      try {
        return await read(db);
      } catch (err) {
        if (isAppError(err)) throw err;
        if (replicaGone(err)) {
          deadUntil = Date.now() + DEAD_FOR_MS;
          mark('down', 'failed during a read', err);
        }
        return read(app.db);
      }
    });

    // After a write, the primary's WAL position goes with the user (a cookie), to whichever instance reads for them next.
    app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
      if (!WRITES.has(request.method) || reply.statusCode >= 400) return payload;
      try {
        const lsn = await primaryLsn();
        reply.header('set-cookie', `${WRITE_LSN_COOKIE}=${lsn}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Strict`);
      } catch {
        // Without it the user's next read goes by the replica's lag check alone.
      }
      return payload;
    });
  },
  { name: 'tiyu-replica', dependencies: ['tiyu-db'] },
);
