import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { startPglite, type StartedPglite } from './pglite-start';
import { isPgPool, loadPg } from './pg-driver';
import { PreparingPGlite } from './pglite-statements';
import * as orgs from './schema/orgs';
import * as auth from './schema/auth';
import * as school from './schema/school';
import * as testPlans from './schema/test-plans';
import * as physique from './schema/physique';
import * as dataCenter from './schema/data-center';
import * as files from './schema/files';
import * as audit from './schema/audit';
import * as venue from './schema/venue';
import * as departments from './schema/departments';
import * as activities from './schema/activities';
import * as platform from './schema/platform';
import * as contests from './schema/contests';
import * as content from './schema/content';
import * as meets from './schema/meets';
import * as homework from './schema/homework';
import * as lessons from './schema/lessons';
import * as jobs from './schema/jobs';
import * as sharedLimits from './schema/shared-limits';
import * as physiqueYear from './schema/physique-year';
import * as lessonLoad from './schema/lesson-load';
import * as conversion from './schema/conversion';
import * as parentReports from './schema/parent-reports';
import * as warnings from './schema/warnings';
import * as testDay from './schema/test-day';
import * as shell from './schema/shell';
import * as listSettings from './schema/list-settings';
import * as notices from './schema/notices';
import * as messages from './schema/messages';
import * as dictionaries from './schema/dictionaries';
import * as consent from './schema/consent';
import * as dataAccess from './schema/data-access';
import * as security from './schema/security';
import * as retention from './schema/retention';
import * as accessLog from './schema/access-log';

/** Every table, by its export name (main.ts counts `schema.orgs`; tests and scripts take tables from it). */
export const schema = { ...orgs, ...auth, ...school, ...testPlans, ...physique, ...dataCenter, ...files, ...audit, ...venue, ...departments, ...activities, ...platform, ...contests, ...content, ...meets, ...homework, ...lessons, ...jobs, ...sharedLimits, ...physiqueYear, ...lessonLoad, ...conversion, ...parentReports, ...warnings, ...testDay, ...shell, ...listSettings, ...notices, ...messages, ...dictionaries, ...consent, ...dataAccess, ...security, ...retention, ...accessLog };

/**
 * Raw-query results both drivers share (`db.execute(sql…)` → `{ rows }`): PGlite's Results and
 * node-postgres' QueryResult both carry `rows`, so `execute<Row>()` is typed on either.
 */
export interface DbRawResult<TRow> {
  rows: TRow[];
}
export interface DbQueryResultHKT extends PgQueryResultHKT {
  type: DbRawResult<this['row']>;
}
/**
 * One database type for both drivers (PGlite and node-postgres). Without drizzle's relational queries (`db.query.*`,
 * used nowhere): given the schema, drizzle walks every table to build their config when the database opens, ≈ 3 % of
 * a start's main-thread CPU for nothing (docs/decisions/065-built-server.md).
 */
export type Db = PgDatabase<DbQueryResultHKT>;
/** A transaction handle; services accept `Db | Tx` so they compose inside a caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

interface HandleBase {
  db: Db;
  /** Closes the embedded database or the pool; safe to call twice. PGlite keeps the process alive until closed. */
  close(): Promise<void>;
  /** PGlite on a directory: closes the database and opens it again, keeping the directory's lock (settleDb). */
  reopen?(): Promise<DbHandle>;
}
export type DbHandle = HandleBase & ({ kind: 'pglite'; raw: PGlite } | { kind: 'postgres'; raw: pg.Pool });

export interface OpenDbOptions {
  /** PGlite data directory; in-memory when absent. Kept apart from databaseUrl on purpose (PGlite treats any string as a path). */
  pgliteDir?: string;
  /** PostgreSQL connection string; when set, the server is used instead of PGlite. */
  databaseUrl?: string;
  /** PGlite only: a tarball from `dumpDataDir()` to start from (tests reuse one migrated, seeded database). */
  loadDataDir?: Blob;
  /** node-postgres pool size. */
  poolMax?: number;
  /** node-postgres: give up connecting after this long (a read replica that is down must not hold a request up). */
  connectTimeoutMs?: number;
  /** PGlite only: the instance `startPglite` already started on `pgliteDir` (server/main.ts starts it first). */
  started?: Promise<StartedPglite>;
}

// Two folders up is the project from here (server/db) and from the built server (dist/server, scripts/build-server.ts).
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../server/db/migrations', import.meta.url));
let newestMigration: number | undefined;
/** The newest migration this code has: its `when` in drizzle's journal, which the migrator stores as `created_at`. */
export function newestMigrationMillis(): number {
  if (newestMigration === undefined) {
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
    newestMigration = Math.max(...journal.entries.map((e) => e.when));
  }
  return newestMigration;
}

/**
 * Whether the database has this code's newest migration. drizzle's migrator applies exactly the migrations whose `when`
 * is later than the newest applied `created_at`, so then it would apply nothing: one query instead of reading and
 * hashing every migration file and its own four statements on every start (docs/performance.md, "Server start"). A
 * database without drizzle's table (a fresh one) is not current.
 */
async function migrationsCurrent(db: Db): Promise<boolean> {
  try {
    const { rows } = await db.execute<{ newest: string | number | null }>(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`);
    return Number(rows[0]?.newest ?? 0) >= newestMigrationMillis();
  } catch {
    return false;
  }
}

/** Serialises migrations when several server instances start against one PostgreSQL. */
const MIGRATION_LOCK_KEY = 7_461_302_026;

/**
 * Runs a client's promise queries one after the other. In a transaction (one client) a service may send two at once
 * (`Promise.all` over a `DbOrTx`); node-postgres still queues a query sent while another runs, but warns that this is
 * deprecated and ends in pg 9. A query sent while none of ours runs goes at once, so the order of sending is kept;
 * callback queries (the pool's own `pool.query`) and stream queries (COPY) always go at once.
 */
function queueQueries(client: pg.PoolClient): void {
  const send = client.query.bind(client) as (...args: unknown[]) => unknown;
  let running = 0;
  let tail: Promise<unknown> = Promise.resolve();
  client.query = ((...args: unknown[]) => {
    const stream = typeof (args[0] as { submit?: unknown } | null)?.submit === 'function';
    if (stream || args.some((a) => typeof a === 'function')) return send(...args);
    const result = running === 0 ? (send(...args) as Promise<unknown>) : tail.then(() => send(...args));
    running++;
    tail = result.then(
      () => void running--,
      () => void running--,
    );
    return result;
  }) as typeof client.query;
}

/** Opens PGlite (default) or a PostgreSQL pool (when `databaseUrl` is set). */
export async function openDb(opts: OpenDbOptions = {}): Promise<DbHandle> {
  if (opts.databaseUrl) {
    // Only a PostgreSQL start loads node-postgres and drizzle's driver for it (server/db/pg-driver.ts).
    const [{ Pool }, { drizzle: drizzleNodePg }] = await Promise.all([loadPg(), import('drizzle-orm/node-postgres')]);
    const pool = new Pool({ connectionString: opts.databaseUrl, max: opts.poolMax ?? 10, connectionTimeoutMillis: opts.connectTimeoutMs });
    // An idle client losing its connection must not crash the process.
    pool.on('error', () => {});
    pool.on('connect', queueQueries);
    const db: Db = drizzleNodePg({ client: pool });
    let closed = false;
    return {
      kind: 'postgres',
      raw: pool,
      db,
      async close() {
        if (closed) return;
        closed = true;
        await pool.end();
      },
    };
  }
  return openPglite(opts, await (opts.started ?? startPglite(opts)));
}

async function openPglite(opts: OpenDbOptions, { client, release }: StartedPglite): Promise<DbHandle> {
  try {
    await client.waitReady;
  } catch (err) {
    release();
    throw err;
  }
  const db: Db = drizzlePglite({ client });
  let keepLock = false;
  const close = async () => {
    try {
      if (!client.closed) await client.close();
    } finally {
      if (!keepLock) release();
    }
  };
  const dir = opts.pgliteDir;
  // An in-memory database has nothing to reopen: it would come back empty.
  const reopen = dir
    ? async () => {
        keepLock = true;
        await close();
        // Under the lock this process still holds.
        return openPglite({ pgliteDir: dir }, { client: new PreparingPGlite({ dataDir: dir }), release });
      }
    : undefined;
  return { kind: 'pglite', raw: client, db, close, ...(reopen ? { reopen } : {}) };
}

/**
 * Makes what a first start wrote (migrations, the demo) the database's durable starting point before it serves: on a
 * PGlite directory, a clean close (a shutdown checkpoint) and a fresh open under the same directory lock, so the first
 * run serves from the same state as every later start (docs/decisions/025-pglite-durability.md). Returns the handle to
 * use from then on; PostgreSQL's handle is returned as it is.
 */
export async function settleDb(handle: DbHandle): Promise<DbHandle> {
  return handle.kind === 'pglite' && handle.reopen ? handle.reopen() : handle;
}

/**
 * Gives every table the change feed's trigger it lacks (migrations 0035_changes, 0064_change_trigger_gaps), so a table
 * a later migration adds is covered too. One plain query asks whether any table lacks it; only then does the PL/pgSQL
 * loop run: a start that finds none loads no PL/pgSQL (on a cold PGlite ≈ 0.1–0.2 s of CPU; docs/decisions/065-built-server.md).
 */
async function ensureChangeTriggers(query: (text: string) => Promise<{ rows: unknown[] }>): Promise<void> {
  const { rows } = await query('select exists (select 1 from tiyu_change_trigger_gaps()) as missing');
  if ((rows[0] as { missing: boolean }).missing) await query('select tiyu_ensure_change_triggers()');
}

/**
 * Applies the committed migrations of server/db/migrations with the driver's migrator (when the database lacks the
 * newest), then gives every table the change feed's trigger it lacks (ensureChangeTriggers): on every start, so a
 * start killed between the two still ends with every table covered.
 */
export async function migrateDb(handle: DbHandle): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_FOLDER };
  if (handle.kind === 'pglite') {
    // The handle's db was built by drizzle-orm/pglite in openDb.
    if (!(await migrationsCurrent(handle.db))) await migratePglite(handle.db as PgliteDatabase, config);
    const raw = handle.raw;
    await ensureChangeTriggers((text) => raw.query(text));
    return;
  }
  const lock = await handle.raw.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    // Under the lock: an instance that waited for another's migrations finds them applied.
    if (!(await migrationsCurrent(handle.db))) {
      const { migrate: migrateNodePg } = await import('drizzle-orm/node-postgres/migrator');
      await migrateNodePg(handle.db as NodePgDatabase, config);
    }
    await ensureChangeTriggers((text) => lock.query(text));
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    lock.release();
  }
}

/** The driver client under a drizzle database (drizzle keeps it as `$client`); none under a transaction's handle. */
export function driverOf(db: unknown): PGlite | pg.Pool | undefined {
  const client: unknown = typeof db === 'object' && db !== null ? Reflect.get(db, '$client') : undefined;
  return client instanceof PGlite || isPgPool(client) ? client : undefined;
}

/**
 * Whether `db` is a PostgreSQL server's pool (PGlite, and a transaction's handle, are not): the database then works in
 * its own process, so statements can run beside our JavaScript and beside each other.
 */
export const onServer = (db: unknown): boolean => isPgPool(driverOf(db));
