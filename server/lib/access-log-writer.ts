import type { Db } from '../db/client';
import { accessLogs } from '../db/schema/access-log';

export type AccessLogEntry = typeof accessLogs.$inferInsert;

export interface AccessLogWriterOptions {
  /** Rows are written at least this often (the most an acknowledged request's row waits in memory). */
  flushEveryMs?: number;
  /** A flush starts as soon as this many rows wait. */
  flushAtRows?: number;
  /** Past this many waiting rows (the database is down or far behind) new rows are dropped and counted. */
  maxRows?: number;
  onError?: (err: unknown, rows: number) => void;
}

/** Rows per INSERT statement: 15 columns × 1 000 stays far below PostgreSQL's 65 535 parameters. */
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
          await this.db.insert(accessLogs).values(batch);
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
