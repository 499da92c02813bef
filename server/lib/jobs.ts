import type { FastifyBaseLogger } from 'fastify';
import type { i18n, TFunction } from 'i18next';
import { PGlite } from '@electric-sql/pglite';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Db as BossDb, PgBoss } from 'pg-boss';
import type { JobKind } from '@/domain/jobs';
import type { Locale } from '@/domain/constants';
import { driverOf, type Db, type Tx } from '../db/client';
import { isPgPool, loadPg } from '../db/pg-driver';
import { jobs } from '../db/schema/jobs';
import { users } from '../db/schema/auth';
import { withExportStamp } from './spreadsheet/export-stamp';
import { loadScope, type Actor } from '../plugins/tenant';
import { AppError, type MessageKey } from './app-error';
import { jobMessageStatement, leaveJobMessage } from './job-messages';

/** Turns a drizzle statement into text and parameters for a raw connection (finishIn). */
const dialect = new PgDialect();

/**
 * The job queue (docs/decisions/026-job-queue.md): pg-boss on the app's own database — the PGlite handle in one process,
 * or the PostgreSQL pool, where any instance's worker takes any job. The `jobs` table is what users see of a job;
 * pg-boss's own tables carry the claim, the expiry and the retries.
 *
 * Rules a handler keeps: its write goes through `finish` (one transaction with the job's `done`, so a retry after a dead
 * process writes it once or not at all); what it does before `finish` writes nothing the user sees (files in the store
 * are content-addressed and only referenced by that same transaction).
 */
export interface JobContext<I> {
  id: string;
  db: Db;
  /** The starter, loaded afresh (a role lost since the start counts). */
  actor: Actor;
  input: I;
  /** Translates into the starter's language (file names, texts printed on certificates). */
  t: TFunction;
  locale: Locale;
  now(): Date;
  /** Reports how far the job got; `stage` is a jobs:stage.… key. Throttled: call it as often as convenient. */
  progress(done: number, total: number, stage?: MessageKey): Promise<void>;
  /** The job's write and its `done` state, in one transaction. */
  finish(write: (tx: Tx) => Promise<StoredJobResult>): Promise<void>;
  /**
   * `finish` for a write that runs its own transaction on a raw connection (the score import's COPY path,
   * server/modules/physique-results/bulk-session.ts): marks the job done with `query`, a statement of that transaction, so the
   * write and the `done` commit together; throws (rolling the caller's transaction back) when another run finished it.
   */
  finishIn(query: RawQuery, result: StoredJobResult): Promise<void>;
}

/** One statement on a caller's connection (a BulkSession's `query`). */
export type RawQuery = (text: string, params?: unknown[]) => Promise<unknown[]>;

/** What a finished job keeps: a file of the store, counts, and a message key the reader sees in their own language. */
export interface StoredJobResult {
  fileId?: string;
  fileName?: string;
  counts?: Record<string, number>;
  messageKey?: MessageKey;
  messageParams?: Record<string, string | number>;
}

export type JobHandler<I> = (ctx: JobContext<I>) => Promise<void>;

export interface JobQueueOptions {
  db: Db;
  now: () => Date;
  i18n: i18n;
  log: FastifyBaseLogger;
  /** TIYU_JOB_EXPIRE_SECONDS: after this long a job whose process died is taken again (default JOB_EXPIRE_SECONDS). */
  expireSeconds?: number;
  /** TIYU_JOB_HEARTBEAT_SECONDS (PostgreSQL only; default JOB_HEARTBEAT_SECONDS, at least 10 as pg-boss requires). */
  heartbeatSeconds?: number;
  /** TIYU_JOB_POLL_SECONDS: how often an idle worker looks for a job it was not woken for (default JOB_POLL_SECONDS). */
  pollSeconds?: number;
  /**
   * Runs a read on the read replica when it has replayed the primary's position at that moment, else on the primary,
   * retrying on the primary a replica that fails (app.readWith(null, …), server/plugins/replica.ts).
   */
  readFresh?: <T>(read: (db: Db) => Promise<T>) => Promise<T>;
}

/**
 * Kinds whose handler only reads before `finish` (which writes on the primary whatever `db` the handler was given):
 * their `db` is the read replica when it is as fresh as the primary at the job's start (docs/deploy.md, "Read replica").
 */
const REPLICA_READ_KINDS: ReadonlySet<JobKind> = new Set<JobKind>(['physiqueExport', 'certificates']);

/** A job whose process died is taken again after this long (pg-boss expiry), up to RETRY_LIMIT times. */
export const JOB_EXPIRE_SECONDS = 15 * 60;
export const JOB_RETRY_LIMIT = 2;
/**
 * On PostgreSQL a worker beats every half of this (pg-boss heartbeats from its pool); a job whose beats stop (its
 * process died) is taken again after this long instead of the whole expiry, which then only bounds a job that hangs.
 * PGlite has none: one process holds the database, so a dead process is a stopped server, and a heartbeat would wait
 * behind the job's own transaction on the single connection.
 */
export const JOB_HEARTBEAT_SECONDS = 30;
/**
 * An idle worker looks for jobs this often even when nothing woke it: the fallback behind the wake-ups (a job sent by
 * this process wakes its worker at once, one sent by another instance through PostgreSQL's NOTIFY), for a wake-up lost
 * with a dropped listening connection, a retry after an expiry, or a queue made before wake-ups. pg-boss's minimum.
 */
export const JOB_POLL_SECONDS = 0.5;
/** A lost listening connection (PostgreSQL) is opened again after this long; the poll covers the gap. */
const RELISTEN_MS = 1000;
/** Progress is written at most this often (ms), besides stage changes. */
const PROGRESS_EVERY_MS = 250;
/** Generic message of a job that failed for a reason the user cannot act on. */
export const JOB_FAILED: MessageKey = 'jobs:error.unexpected';
/** Message of a job given up after its process died more often than the retry limit (the sweep). */
export const JOB_LOST: MessageKey = 'jobs:error.lost';
/** pg-boss's states in which a job will still run (anything else is over: completed, failed, cancelled, or deleted). */
const BOSS_LIVE_STATES = ['created', 'retry', 'active'];

/** pg-boss, loaded when the queue first starts (after listening, or at the first enqueue): not on the start path. */
type BossModule = typeof import('pg-boss');
let bossModule: Promise<BossModule> | undefined;
const loadBoss = (): Promise<BossModule> => (bossModule ??= import('pg-boss'));

/**
 * pg-boss on the same database as the app: the PGlite instance itself (its adapter listens in-process), or the
 * node-postgres pool, with a listening connection of its own so a job sent by any instance wakes this one's workers.
 */
function bossDb(boss: BossModule, db: Db): BossDb {
  const driver = driverOf(db);
  if (driver instanceof PGlite) return boss.fromPglite(driver);
  if (isPgPool(driver)) {
    const pool = driver;
    return { executeSql: (text, values) => pool.query(text, values), listen: listenOn(pool.options) };
  }
  throw new Error('job queue: no database driver');
}

/**
 * pg-boss's LISTEN capability on PostgreSQL (`IDatabase.listen`): one connection outside the pool (LISTEN belongs to a
 * session; the pool's stay free for queries), opened again after a loss, with `onReconnect` after every LISTEN so
 * pg-boss looks for the jobs whose NOTIFY fell in the gap. A first connection that fails throws: pg-boss then warns and
 * its workers poll only. Behind a transaction-pooling PgBouncer LISTEN does not work; the poll still does.
 */
function listenOn(options: pg.PoolConfig): NonNullable<BossDb['listen']> {
  return async (channel, onNotification, onReconnect) => {
    let closed = false;
    let established = false;
    let client: pg.Client | null = null;
    let timer: NodeJS.Timeout | null = null;
    const end = (c: pg.Client) => {
      c.removeAllListeners();
      c.on('error', () => {});
      return c.end().catch(() => {});
    };
    const retry = () => {
      if (closed || timer) return;
      timer = setTimeout(() => {
        timer = null;
        connect().catch(retry);
      }, RELISTEN_MS);
      timer.unref();
    };
    const connect = async () => {
      const { Client } = await loadPg();
      const next = new Client({ ...options, application_name: 'tiyu job queue', keepAlive: true });
      const lose = () => {
        if (client !== next) return;
        client = null;
        void end(next);
        if (established) retry();
      };
      next.on('error', lose);
      next.on('end', lose);
      next.on('notification', (n) => {
        if (n.channel === channel && n.payload !== undefined) onNotification(n.payload);
      });
      client = next;
      try {
        await next.connect();
        await next.query(`LISTEN "${channel}"`);
      } catch (err) {
        if (client === next) client = null;
        await end(next);
        throw err;
      }
      if (closed || client !== next) return void end(next);
      established = true;
      onReconnect();
    };
    await connect();
    return {
      close: async () => {
        closed = true;
        if (timer) clearTimeout(timer);
        const c = client;
        client = null;
        if (c) await end(c);
      },
    };
  };
}

export class JobQueue {
  readonly #handlers = new Map<JobKind, JobHandler<unknown>>();
  readonly #opts: JobQueueOptions;
  #bossInstance: PgBoss | null = null;
  #bossModule: BossModule | null = null;
  #started: Promise<void> | null = null;
  #stopping = false;
  #working = false;
  #sweepTimer: NodeJS.Timeout | null = null;
  #sweeping: Promise<unknown> = Promise.resolve();
  /** This process's pg-boss worker per kind, to wake when a job of that kind is sent here. */
  readonly #workers = new Map<JobKind, string>();
  /** Jobs running in this process, so a stop waits for them. */
  readonly #running = new Set<Promise<void>>();

  constructor(opts: JobQueueOptions) {
    this.#opts = opts;
  }

  get #expire(): number {
    return this.#opts.expireSeconds ?? JOB_EXPIRE_SECONDS;
  }

  /** The heartbeat of a job on PostgreSQL (JOB_HEARTBEAT_SECONDS); none on PGlite, or when the expiry comes first. */
  get #heartbeat(): number | undefined {
    if (driverOf(this.#opts.db) instanceof PGlite) return undefined;
    const beat = Math.max(10, this.#opts.heartbeatSeconds ?? JOB_HEARTBEAT_SECONDS);
    return beat < this.#expire ? beat : undefined;
  }

  /** pg-boss refuses a heartbeatSeconds key without a value: the option only when there is a heartbeat. */
  get #beats(): { heartbeatSeconds?: number } {
    const beat = this.#heartbeat;
    return beat === undefined ? {} : { heartbeatSeconds: beat };
  }

  /** How often pg-boss's supervisor and our sweep look: at least twice per expiry or heartbeat (pg-boss's default is once a minute). */
  get #poll(): number {
    return Math.max(JOB_POLL_SECONDS, this.#opts.pollSeconds ?? JOB_POLL_SECONDS);
  }

  get #superviseSeconds(): number {
    return Math.max(1, Math.min(60, Math.floor(Math.min(this.#expire, this.#heartbeat ?? Infinity) / 2)));
  }

  /** pg-boss, made on first use (after #start loaded it): an app built without a database driver (tests of the pipeline alone) never needs it. */
  get #boss(): PgBoss {
    if (!this.#bossInstance) {
      const boss = this.#bossModule;
      if (!boss) throw new Error('job queue: not started');
      const { db, log } = this.#opts;
      const pglite = driverOf(db) instanceof PGlite;
      // The supervisor finds expired jobs: it looks at least twice per expiry.
      const superviseIntervalSeconds = this.#superviseSeconds;
      this.#bossInstance = new boss.PgBoss({ db: bossDb(boss, db), ...(pglite ? { backend: 'pglite' as const } : {}), schedule: false, useListenNotify: true, superviseIntervalSeconds });
      this.#bossInstance.on('error', (err: unknown) => log.error({ err }, 'job queue'));
      // E.g. no LISTEN (a transaction-pooling PgBouncer): the workers then only poll.
      this.#bossInstance.on('warning', (warning: unknown) => log.warn({ warning }, 'job queue'));
    }
    return this.#bossInstance;
  }

  /** Modules name their kinds of job when they register. */
  define<I>(kind: JobKind, handler: JobHandler<I>): void {
    this.#handlers.set(kind, handler as JobHandler<unknown>);
  }

  /** Installs pg-boss's schema (once per database; later starts only check it) and the queues. */
  #start(): Promise<void> {
    this.#started ??= (async () => {
      this.#bossModule ??= await loadBoss();
      await this.#boss.start();
      for (const kind of this.#handlers.keys()) {
        // `notify`: sending a job NOTIFYs in its transaction, so every instance's listener wakes its worker once the job commits.
        await this.#boss.createQueue(kind, { retryLimit: JOB_RETRY_LIMIT, retryDelay: 1, expireInSeconds: this.#expire, notify: true, ...this.#beats });
        // A queue made before wake-ups keeps its options (createQueue leaves an existing queue alone).
        if (!(await this.#boss.getQueue(kind))?.notify) await this.#boss.updateQueue(kind, { notify: true });
      }
    })().catch((err: unknown) => {
      this.#started = null;
      throw err;
    });
    return this.#started;
  }

  /**
   * Records the job and queues it in one transaction; answers its id. The input was validated by the caller; `guard`
   * runs first in that transaction (lock and check what must hold to start, e.g. no other import of the plan).
   */
  async enqueue(kind: JobKind, actor: Actor, input: unknown, locale: Locale, guard?: (tx: Tx) => Promise<void>): Promise<string> {
    if (!this.#handlers.has(kind)) throw new Error(`job queue: unknown kind ${kind}`);
    await this.#start();
    const { fromDrizzle } = await loadBoss();
    const id = await this.#opts.db.transaction(async (tx) => {
      await guard?.(tx);
      const [row] = await tx
        .insert(jobs)
        .values({ kind, orgId: actor.tenantOrgId, userId: actor.userId, accountId: actor.accountId, input: input as object, locale, createdAt: this.#opts.now() })
        .returning({ id: jobs.id });
      // The expiry and heartbeat per job too: a queue made by an earlier start keeps what it was made with.
      // The queue's NOTIFY goes in this transaction too: no instance is woken before the job is there to take.
      await this.#boss.send(kind, { id: row.id }, { id: row.id, db: fromDrizzle(tx, sql), expireInSeconds: this.#expire, ...this.#beats });
      return row.id;
    });
    // Committed: this process's worker looks now, without waiting for its poll or the NOTIFY's round trip.
    this.#wake(kind);
    return id;
  }

  #wake(kind: JobKind): void {
    const worker = this.#workers.get(kind);
    if (worker) this.#boss.notifyWorker(worker);
  }

  /**
   * Marks failed the jobs pg-boss has given up on while our row still says queued or running: a process that died
   * during every attempt (retry limit spent, pg-boss failed it on expiry) never reached its own `failed` update. pg-boss
   * is the truth; one statement, so a job being started (row and pg-boss job in one transaction) is seen whole or not at
   * all. Safe on every instance at once (the update only moves rows still open). Answers the ids it failed.
   */
  async sweep(): Promise<string[]> {
    const { db, now, log } = this.#opts;
    const error = { key: JOB_LOST, params: {}, status: 500 };
    const lost = await db
      .update(jobs)
      .set({ state: 'failed', error, stage: null, finishedAt: now() })
      .where(
        and(
          inArray(jobs.state, ['queued', 'running']),
          sql`not exists (select 1 from pgboss.job b where b.id = ${jobs.id} and b.state::text in (${sql.join(
            BOSS_LIVE_STATES.map((s) => sql`${s}`),
            sql`, `,
          )}))`,
        ),
      )
      .returning({ id: jobs.id, kind: jobs.kind });
    for (const job of lost) {
      log.warn({ jobId: job.id, kind: job.kind }, 'job given up after its process died on every attempt');
      await leaveJobMessage(db, job.id);
    }
    return lost.map((job) => job.id);
  }

  /** Starts taking jobs in this process (server/main.ts after listen; tests ask buildApp for it); sweeps now and then. */
  async work(): Promise<void> {
    if (this.#working) return;
    this.#working = true;
    this.#stopping = false;
    await this.#start();
    const sweep = () => (this.#sweeping = this.sweep().catch((err: unknown) => this.#opts.log.error({ err }, 'job queue sweep')));
    await sweep();
    // A stop that came while the queue was starting (SIGTERM right after listen) wins: take no jobs.
    if (this.#stopping) return;
    this.#sweepTimer = setInterval(() => void sweep(), this.#superviseSeconds * 1000);
    this.#sweepTimer.unref();
    // Woken when a job is sent (#wake here, NOTIFY from other instances); the poll, the same with or without a
    // listener (pg-boss would otherwise relax it to 30 s while listening), is the fallback.
    const polling = { pollingIntervalSeconds: this.#poll, notifyPollingIntervalSeconds: this.#poll, batchSize: 1 };
    for (const kind of this.#handlers.keys()) {
      const worker = await this.#boss.work<{ id: string }>(kind, polling, async ([job]) => {
        const run = this.run(job.data.id);
        this.#running.add(run);
        try {
          await run;
        } finally {
          this.#running.delete(run);
          // Look again as soon as this job ends: a job sent while the worker was taking this one waits in the queue.
          this.#wake(kind);
        }
      });
      this.#workers.set(kind, worker);
    }
  }

  /** Stops taking jobs; a job in flight finishes, or is taken again after its expiry if the process is ended first. */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#sweepTimer) clearInterval(this.#sweepTimer);
    this.#sweepTimer = null;
    await this.#sweeping;
    if (!this.#started) return;
    // pg-boss may still be loading or starting: stop it once it has started (a failed start left nothing to stop).
    if (!(await this.#started.then(() => true, () => false))) return;
    await this.#boss.stop({ graceful: true, close: false, timeout: 10_000 }).catch(() => undefined);
    await Promise.allSettled([...this.#running]);
    this.#workers.clear();
    this.#started = null;
    this.#working = false;
  }

  /**
   * Runs one job from the start (a retry after a dead process starts over: nothing was written before `finish`). A handler
   * that throws marks the job failed with its message and is not retried: the same input would fail the same way.
   */
  async run(id: string): Promise<void> {
    const { db, now, i18n: i18nInstance, log } = this.#opts;
    const [row] = await db.select().from(jobs).where(eq(jobs.id, id)).limit(1);
    if (!row || row.state === 'done' || row.state === 'failed') return;
    const handler = this.#handlers.get(row.kind as JobKind);
    await db
      .update(jobs)
      .set({ state: 'running', done: 0, total: 0, stage: null, attempts: sql`${jobs.attempts} + 1`, startedAt: now() })
      .where(eq(jobs.id, id));
    const locale = row.locale as Locale;
    const t = i18nInstance.getFixedT(locale);
    let last = 0;
    let lastStage: string | null = null;
    const progress: JobContext<unknown>['progress'] = async (done, total, stage) => {
      const at = Date.now();
      if (at - last < PROGRESS_EVERY_MS && (stage ?? lastStage) === lastStage && done < total) return;
      last = at;
      lastStage = stage ?? lastStage;
      await db
        .update(jobs)
        .set({ done, total, ...(stage ? { stage } : {}) })
        .where(and(eq(jobs.id, id), eq(jobs.state, 'running')));
    };
    const markDone = (tx: Db | Tx, result: StoredJobResult) =>
      tx
        .update(jobs)
        .set({ state: 'done', result, done: sql`greatest(${jobs.total}, ${jobs.done})`, stage: null, finishedAt: now() })
        .where(and(eq(jobs.id, id), eq(jobs.state, 'running')))
        .returning({ id: jobs.id });
    const finish: JobContext<unknown>['finish'] = async (write) => {
      await db.transaction(async (tx) => {
        const result = await write(tx);
        // Another run finished it first: roll this one back rather than write twice.
        if ((await markDone(tx, result)).length === 0) throw new AppError(409, JOB_FAILED);
        // The starter's message commits with the result (docs/product-rules.md#to-dos-and-messages).
        await leaveJobMessage(tx, id);
      });
    };
    const finishIn: JobContext<unknown>['finishIn'] = async (query, result) => {
      // The same statement, sent on the caller's connection inside its transaction.
      const statement = markDone(db, result).toSQL();
      if ((await query(statement.sql, statement.params)).length === 0) throw new AppError(409, JOB_FAILED);
      // The starter's message commits with the result here too: a screen that sees the job done finds its message.
      const message = dialect.sqlToQuery(jobMessageStatement(id));
      await query(message.sql, message.params);
    };
    try {
      if (!handler) throw new AppError(500, JOB_FAILED);
      const actor = await loadScope(db, row.userId, row.orgId);
      if (!actor || actor.tenantOrgId !== row.orgId) throw new AppError(403, 'errors:forbidden');
      const kind = row.kind as JobKind;
      const runOn = (on: Db) => handler({ id, db: on, actor, input: row.input, t, locale, now, progress, finish, finishIn });
      // A file the job writes (an export, a failures workbook) names who asked and when (server/lib/spreadsheet/export-stamp.ts).
      const [me] = await db.select({ name: users.name, account: users.accountNum }).from(users).where(eq(users.id, row.userId)).limit(1);
      await withExportStamp({ name: me?.name ?? '', account: me?.account ?? '', at: now() }, () =>
        REPLICA_READ_KINDS.has(kind) && this.#opts.readFresh ? this.#opts.readFresh(runOn) : runOn(db),
      );
      // A handler's `finish` and `finishIn` leave the message with the result; this catches any other way a job ends done (a no-op after them).
      await leaveJobMessage(db, id);
    } catch (err) {
      // The status too: a screen (and a test) tells a refused file (400) from a busy plan (409).
      const error = err instanceof AppError ? { key: err.i18nKey, params: err.params, status: err.status } : { key: JOB_FAILED, params: {}, status: 500 };
      if (!(err instanceof AppError)) log.error({ err, jobId: id, kind: row.kind }, 'job failed');
      await db
        .update(jobs)
        .set({ state: 'failed', error, stage: null, finishedAt: now() })
        .where(and(eq(jobs.id, id), eq(jobs.state, 'running')));
      await leaveJobMessage(db, id);
    }
  }
}
