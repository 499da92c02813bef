import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { dayOf, ensureDayPartitions } from '../db/day-partitions';
import type { accessLogs } from '../db/schema/access-log';

export type AccessLogEntry = Omit<typeof accessLogs.$inferInsert, 'id'>;

/** The table's columns with their types, in the INSERT's order. */
const COLUMNS: readonly [key: keyof AccessLogEntry, column: string, type: string][] = [
  ['at', 'at', 'timestamptz'],
  ['kind', 'kind', 'text'],
  ['orgId', 'org_id', 'uuid'],
  ['userId', 'user_id', 'uuid'],
  ['accountId', 'account_id', 'uuid'],
  ['roleId', 'role_id', 'uuid'],
  ['deviceId', 'device_id', 'uuid'],
  ['method', 'method', 'text'],
  ['route', 'route', 'text'],
  ['pageKey', 'page_key', 'text'],
  ['status', 'status', 'smallint'],
  ['durationMs', 'duration_ms', 'integer'],
  ['ip', 'ip', 'text'],
  ['userAgent', 'user_agent', 'text'],
];

/**
 * One INSERT of many rows with one array parameter per column (`unnest`): a row-by-row VALUES list costs the query
 * builder and the driver a parameter per cell, about ten times as much at 500 rows (tests/bench/access-log.ts).
 */
function insertRows(rows: readonly AccessLogEntry[]) {
  const arrays = COLUMNS.map(([key, , type]) => {
    const values = rows.map((r) => {
      const v = r[key];
      return v instanceof Date ? v.toISOString() : (v ?? null);
    });
    return sql`${sql.param(values)}::${sql.raw(type)}[]`;
  });
  return sql`insert into access_logs (${sql.raw(COLUMNS.map(([, c]) => c).join(', '))}) select * from unnest(${sql.join(arrays, sql`, `)})`;
}

export interface AccessLogWriterOptions {
  /** Rows are written at least this often (the most an acknowledged request's row waits in memory). */
  flushEveryMs?: number;
  /** A flush starts as soon as this many rows wait. */
  flushAtRows?: number;
  /** Past this many waiting rows (the database is down or far behind) new rows are dropped and counted. */
  maxRows?: number;
  onError?: (err: unknown, rows: number) => void;
}

/** Rows per INSERT statement. */
const ROWS_PER_INSERT = 1_000;

/**
 * The access log's writer (docs/decisions/062-access-log.md): requests hand it their row and go on; it keeps rows in
 * memory and writes them in one multi-row INSERT every `flushEveryMs` or every `flushAtRows` rows, one flush at a time.
 * Rows waiting when the process is killed (not closed) are lost: at most `flushEveryMs` of requests.
 */
export class AccessLogWriter {
  private rows: AccessLogEntry[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly every: number;
  private readonly at: number;
  private readonly max: number;
  /** Rows dropped because too many waited (reported with the next error). */
  dropped = 0;
  /** Rows written since start (benchmarks, tests). */
  written = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: AccessLogWriterOptions = {},
  ) {
    this.every = opts.flushEveryMs ?? 1_000;
    this.at = opts.flushAtRows ?? 500;
    this.max = opts.maxRows ?? 50_000;
    this.timer = setInterval(() => void this.flush(), this.every);
    this.timer.unref();
  }

  push(row: AccessLogEntry): void {
    if (this.rows.length >= this.max) {
      this.dropped++;
      return;
    }
    this.rows.push(row);
    if (this.rows.length >= this.at) void this.flush();
  }

  /** Writes every waiting row (after a flush under way); resolves when they are in the database or reported lost. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      while (this.rows.length) {
        const batch = this.rows.splice(0, ROWS_PER_INSERT);
        try {
          // The rows' days get their partitions first (made ahead by the hourly job; a day's first flush after midnight,
          // or a job that did not run, makes it here); known days cost a set lookup.
          await ensureDayPartitions(this.db, 'access_logs', batch.map((r) => dayOf('access_logs', r.at.getTime())));
          await this.db.execute(insertRows(batch));
          this.written += batch.length;
        } catch (err) {
          // Not retried: a database that refuses a batch would refuse it again, and the requests were answered already.
          this.opts.onError?.(err, batch.length + this.dropped);
          this.dropped = 0;
        }
      }
    });
    return this.flushing;
  }

  /** Stops the timer and writes what waits (the server's close). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
