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

/** ASCII without COPY's special characters (backslash, tab, line breaks): written as it is. */
function plainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || c === 92 || c === 9 || c === 10 || c === 13) return false;
  }
  return true;
}

/** Bytes of a chunk of CopyText. */
const COPY_CHUNK_BYTES = 1 << 20;

/**
 * COPY text written value by value straight into byte chunks: no string per value or per row, so a bulk write of
 * 50,000 rows of ≈ 75 values leaves the garbage collector its chunks only (docs/decisions/028-score-import-at-copy-speed.md).
 * A row never spans two chunks (one that outgrows its chunk moves whole into the next), so a row's place is its chunk
 * (`rowChunk`) and offsets (`rowStart` to `at`).
 */
export class CopyText {
  private readonly full: Buffer<ArrayBuffer>[] = [];
  private buf = Buffer.allocUnsafe(COPY_CHUNK_BYTES);
  /** Where the next byte goes in the current chunk. */
  at = 0;
  /** Where the row being written starts in the current chunk. */
  rowStart = 0;
  private fullBytes = 0;

  /** Bytes written. */
  get bytes(): number {
    return this.fullBytes + this.at;
  }

  /** The current chunk's index: the row being written is in it. */
  get rowChunk(): number {
    return this.full.length;
  }

  /** Starts a row. */
  row(): void {
    this.rowStart = this.at;
  }

  /** The text written, by chunk (the current one up to `at`). */
  parts(): Buffer<ArrayBuffer>[] {
    return this.at > 0 ? [...this.full, this.buf.subarray(0, this.at)] : [...this.full];
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const partial = this.at - this.rowStart;
    const next = Buffer.allocUnsafe(Math.max(COPY_CHUNK_BYTES, 2 * (partial + n)));
    this.buf.copy(next, 0, this.rowStart, this.at);
    if (this.rowStart > 0) {
      this.full.push(this.buf.subarray(0, this.rowStart));
      this.fullBytes += this.rowStart;
    }
    this.buf = next;
    this.at = partial;
    this.rowStart = 0;
  }

  byte(c: number): void {
    this.room(1);
    this.buf[this.at++] = c;
  }

  tab(): void {
    this.byte(9);
  }

  /** Text known to be ASCII and free of COPY's special characters (ids, numbers, codes). */
  ascii(s: string): void {
    this.room(s.length);
    // Byte by byte: a native write per short string costs more than the loop.
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i);
    this.at = at;
  }

  /** A number as copyValue writes it (String(v); \N when not finite), small integers digit by digit. */
  number(v: number): void {
    if (v >= 0 && v < 1e9 && Number.isInteger(v)) {
      let len = 1;
      for (let p = 10; p <= v; p *= 10) len++;
      this.room(len);
      for (let i = this.at + len - 1; i >= this.at; i--) {
        const d = v % 10;
        this.buf[i] = 48 + d;
        v = (v - d) / 10;
      }
      this.at += len;
    } else this.ascii(Number.isFinite(v) ? String(v) : '\\N');
  }

  /** A value as copyValue writes it. */
  value(v: unknown): void {
    if (typeof v === 'number') return this.number(v);
    if (v == null) return this.ascii('\\N');
    if (typeof v === 'boolean') return this.byte(v ? 116 : 102);
    if (typeof v === 'string' && plainAscii(v)) return this.ascii(v);
    const s = copyValue(v);
    this.room(3 * s.length);
    this.at += this.buf.write(s, this.at, 'utf8');
  }
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
