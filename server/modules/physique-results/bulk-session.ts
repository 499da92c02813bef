import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import { driverOf, type Db } from '../../db/client';

/**
 * One raw transaction for bulk writes (imports, syncs): COPY into a staging table, then set-based SQL
 * (COPY is 8–10× a multi-row INSERT on PostgreSQL: docs/decisions/028-score-import-at-copy-speed.md). Drizzle has no COPY, so this talks to the driver under
 * the app's Db: PGlite's COPY FROM '/dev/blob', node-postgres' COPY FROM STDIN (pg-copy-streams).
 * Everything inside `fn` commits together or not at all.
 */
export interface BulkSession {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** `COPY <table> (<columns>) FROM STDIN` in text format, fed with `chunks` (lines ending in \n). */
  copyIn(table: string, columns: readonly string[], chunks: Iterable<string | Uint8Array<ArrayBuffer>>): Promise<void>;
}

const copySql = (table: string, columns: readonly string[], source: string) => `copy ${table} (${columns.map((c) => `"${c}"`).join(', ')}) from ${source}`;

function pgliteSession(tx: Transaction | PGlite): BulkSession {
  return {
    async query<T>(text: string, params: unknown[] = []) {
      return (await tx.query<T>(text, params)).rows;
    },
    async copyIn(table, columns, chunks) {
      const blob = new Blob([...chunks]);
      await tx.query(copySql(table, columns, `'/dev/blob'`), [], { blob });
    },
  };
}

function pgSession(client: pg.PoolClient): BulkSession {
  return {
    async query<T>(text: string, params: unknown[] = []) {
      return (await client.query(text, params)).rows as T[];
    },
    async copyIn(table, columns, chunks) {
      // Loaded by the first COPY on PostgreSQL, not at start (server/db/pg-driver.ts).
      const { from: copyFrom } = await import('pg-copy-streams');
      await pipeline(Readable.from(chunks), client.query(copyFrom(copySql(table, columns, 'stdin'))));
    },
  };
}

/** The driver client under a drizzle database; bulk writes need one. */
function bulkDriverOf(db: Db): PGlite | pg.Pool {
  const client = driverOf(db);
  if (!client) throw new Error('bulk writes need a PGlite or node-postgres pool database');
  return client;
}

/** A bulk session outside a transaction: its statements commit one by one; `transaction` runs `fn` all or nothing on the same connection. */
export interface BulkConnection extends BulkSession {
  transaction<T>(fn: (session: BulkSession) => Promise<T>): Promise<T>;
}

/**
 * Runs `fn` on one connection without holding a transaction (PGlite: its one session, other requests' statements run
 * between ours), so temp tables outlive single statements and only `transaction(…)` blocks others on PGlite.
 */
export async function withBulkConnection<T>(db: Db, fn: (connection: BulkConnection) => Promise<T>): Promise<T> {
  const driver = bulkDriverOf(db);
  if (driver instanceof PGlite) {
    const session = pgliteSession(driver);
    return fn({ ...session, transaction: (inner) => driver.transaction((tx) => inner(pgliteSession(tx))) });
  }
  const client = await driver.connect();
  try {
    return await fn({ ...pgSession(client), transaction: (inner) => inTransaction(client, inner) });
  } finally {
    client.release();
  }
}

async function inTransaction<T>(client: pg.PoolClient, fn: (session: BulkSession) => Promise<T>): Promise<T> {
  await client.query('begin');
  try {
    const out = await fn(pgSession(client));
    await client.query('commit');
    return out;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  }
}

/** Runs `fn` in one transaction on a dedicated connection (PGlite: its exclusive transaction). */
export async function withBulkTransaction<T>(db: Db, fn: (session: BulkSession) => Promise<T>): Promise<T> {
  const driver = bulkDriverOf(db);
  if (driver instanceof PGlite) return driver.transaction((tx) => fn(pgliteSession(tx)));
  const client = await driver.connect();
  try {
    return await inTransaction(client, fn);
  } finally {
    client.release();
  }
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const escapeCopy = (s: string) => s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

/** A value in COPY text format: \N for null, t/f, numbers as written, text with backslash, tab and line breaks escaped. */
export function copyValue(v: unknown): string {
  // Numbers first: a score import's rows are mostly numbers.
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '\\N';
  if (v == null) return '\\N';
  if (typeof v === 'string') return COPY_SPECIAL.test(v) ? escapeCopy(v) : v;
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (v instanceof Date) return v.toISOString();
  return escapeCopy(String(v));
}

/** Lines of COPY text for `rows`, `perChunk` rows per chunk (bounded string sizes). */
export function* copyLines<R>(rows: readonly R[], values: (row: R) => readonly unknown[], perChunk = 2000): Generator<string> {
  for (let i = 0; i < rows.length; i += perChunk) {
    let chunk = '';
    const end = Math.min(rows.length, i + perChunk);
    for (let j = i; j < end; j++) {
      const vs = values(rows[j]);
      for (let k = 0; k < vs.length; k++) chunk += (k === 0 ? '' : '\t') + copyValue(vs[k]);
      chunk += '\n';
    }
    yield chunk;
  }
}
