import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row per write (docs/product-rules.md#audit): who (user and account), when, for which organisation, what action
 * on which entity, and the entity before and after. Secrets never land here (server/lib/audit.ts strips them).
 *
 * Partitioned by school year on `at` (docs/decisions/064-partitions-by-school-year.md), by the custom migration
 * `audit_logs_school_year_partitions`, which drizzle cannot declare. That migration also makes the primary key
 * (id, at) — a partitioned table's keys must hold the partition key, and drizzle-kit cannot change a primary key
 * without a hand edit, so none is declared here — and keeps one place per chain by a trigger instead of a unique index.
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: uuid('id').notNull().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: uuid('user_id'),
    accountId: uuid('account_id'),
    /** The organisation the changed entity belongs to. */
    orgId: uuid('org_id'),
    /** 'create', 'update', 'delete', or a screen's own verb ('enable', 'resetPassword' …). */
    action: text('action').notNull(),
    /** Entity name, e.g. 'class', 'schoolYear'. */
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /** The record's name or title when it was written, so the log names it after the record is gone or renamed. */
    entityName: text('entity_name'),
    before: jsonb('before'),
    after: jsonb('after'),
    /**
     * The hash chain (docs/decisions/050-audit-hash-chain.md): the row's place in its organisation's chain, the previous
     * row's hash and its own (SHA-256 of the previous hash and the row's content). Set once by the sealer, shortly
     * after the write; a trigger refuses any other change of a row and any delete outside the retention purge.
     */
    seq: bigint('seq', { mode: 'number' }),
    prevHash: text('prev_hash'),
    hash: text('hash'),
  },
  (t) => [
    index('audit_logs_org_at_idx').on(t.orgId, t.at),
    index('audit_logs_entity_idx').on(t.entity, t.entityId),
    index('audit_logs_chain_seq_idx').on(sql`coalesce(${t.orgId}, '00000000-0000-0000-0000-000000000000'::uuid)`, t.seq).where(sql`${t.seq} is not null`),
    index('audit_logs_unsealed_idx').on(t.at, t.id).where(sql`${t.seq} is null`),
  ],
);

/**
 * The head of each organisation's audit chain (the platform's own rows chain under the zero id): the last sealed row's
 * place and hash, and where the chain starts after a retention purge archived its oldest rows.
 */
export const auditChains = pgTable('audit_chains', {
  chainId: uuid('chain_id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  sealedAt: timestamp('sealed_at', { withTimezone: true }).notNull().defaultNow(),
  /** The last purged row's place and hash (0 and the empty hash before any purge). */
  startSeq: bigint('start_seq', { mode: 'number' }).notNull().default(0),
  startHash: text('start_hash').notNull().default(''),
});
