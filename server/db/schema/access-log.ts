// The access log: docs/product-rules.md#platform-logs, docs/decisions/062-access-log.md.
import { bigint, index, integer, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { retentionRuns } from './retention';

/**
 * One signed-in API request (等保 2.0 access audit): who (a console account, an app user or a device), what (method and
 * the route's pattern, never the URL with its values), the catalogue page when the route belongs to one, the answer's
 * status and duration, from where (client IP as TRUST_PROXY resolves it, user agent) and when. Written in batches by
 * server/plugins/access-log.ts; no route edits or removes a row: only the retention run does (archived first).
 * No foreign keys: a log row outlives what it names, and inserts stay cheap.
 *
 * Partitioned by day on `at` (China days, `access_logs_YYYYMMDD`, plus `access_logs_default`) by the custom migration
 * `access_logs_day_partitions`, which drizzle cannot declare (server/db/day-partitions.ts makes days ahead; retention
 * archives and drops whole days). That migration also makes the primary key (id, at): a partitioned table's keys must
 * hold the partition key, and drizzle-kit cannot change a primary key without a hand edit, so none is declared here.
 */
export const accessLogs = pgTable(
  'access_logs',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** 'console' (a console session), 'app' (a student's or parent's app session), 'device' (HTTP Basic device). */
    kind: text('kind', { enum: ['console', 'app', 'device'] }).notNull(),
    /** The tenant organisation the request acted for (a device's school, an app user's child's school). */
    orgId: uuid('org_id'),
    userId: uuid('user_id'),
    /** The membership and role in use (console requests whose account was resolved). */
    accountId: uuid('account_id'),
    roleId: uuid('role_id'),
    deviceId: uuid('device_id'),
    method: text('method').notNull(),
    /** The route pattern (`/api/busi/web/k12/student/:id`), no query string. */
    route: text('route').notNull(),
    /** Catalogue page key (`k12.user.student`) when the route is under a page's API path. */
    pageKey: text('page_key'),
    status: smallint('status').notNull(),
    durationMs: integer('duration_ms').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('access_logs_org_at_idx').on(t.orgId, t.at), index('access_logs_at_idx').on(t.at)],
);

/**
 * Access-log rows a retention run archived and removed: a JSON Lines blob in the file store (`hash`, every column as
 * stored) of rows `fromId`..`toId` (all organisations: the log is one table), written before the rows were removed and
 * recorded in the transaction that removed them. A whole day's partition is one gzip-compressed archive (`periodFrom`
 * to `periodTo`: the day); rows that sat in the default partition are archived in batches, uncompressed.
 */
export const accessLogArchives = pgTable(
  'access_log_archives',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => retentionRuns.id),
    fromId: bigint('from_id', { mode: 'number' }).notNull(),
    toId: bigint('to_id', { mode: 'number' }).notNull(),
    rows: integer('rows').notNull(),
    /** SHA-256 of the archive's bytes: its blob key in the file store. */
    hash: text('hash').notNull(),
    size: integer('size').notNull(),
    /** The period the rows cover: a partition's day [start, next day's start), or a batch's first and last instant. Null on archives made before day partitions. */
    periodFrom: timestamp('period_from', { withTimezone: true }),
    periodTo: timestamp('period_to', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('access_log_archives_run_idx').on(t.runId), index('access_log_archives_created_idx').on(t.createdAt)],
);
